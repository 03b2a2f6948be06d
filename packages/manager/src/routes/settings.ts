import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, Nullable, responses } from '../common/schemas.ts';
import { requireAdmin } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { EnvVarDefaultSchema, SettingsSchema } from './schemas/identity.ts';
import { MAX_ALLOWLIST_ENTRIES } from '../settings/sso-admission.ts';
import { ENV_LIMITS } from '../containers/container-rules.ts';

const AllowList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: MAX_ALLOWLIST_ENTRIES });
const SettingsInput = Type.Object({
  smtpUrl: Type.Optional(Type.String()),
  smtpNoreplyAddress: Type.Optional(Type.String()),
  defaultContainerEnvVars: Type.Optional(Type.Array(EnvVarDefaultSchema, { maxItems: ENV_LIMITS.count })),
  inventoryUrl: Type.Optional(Type.String()),
  inventoryToken: Type.Optional(Nullable(Type.String())),
  bannerMessage: Type.Optional(Type.String()),
  ssoAllowedDomains: Type.Optional(AllowList),
  ssoAllowedGroups: Type.Optional(AllowList),
  ssoGroupsClaim: Type.Optional(Type.String({ maxLength: 255 })),
  registryAllowlist: Type.Optional(
    Type.Array(Type.String({ maxLength: 300 }), {
      maxItems: 100,
      description: 'registries (host or host:port) users may reach on loopback or private networks',
    }),
  ),
  auditRetentionDays: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 36_500, description: 'days the audit log keeps its entries' }),
  ),
  // Names the original system used.
  netboxUrl: Type.Optional(Type.String()),
  netboxToken: Type.Optional(Nullable(Type.String())),
});

export async function settingsRoutes(api: Api, services: Services) {
  const tags = ['Settings'];
  api.get(
    '/settings',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'Settings; secrets are masked',
        response: responses({ 200: Data(SettingsSchema) }),
      },
    },
    async () => ({ data: await services.settings.forDisplay() }),
  );
  api.put(
    '/settings',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary:
          'Update settings; omitted fields keep their value; a masked or blank secret keeps the stored one',
        body: SettingsInput,
        response: responses({ 200: Data(SettingsSchema) }),
      },
    },
    async (request) => {
      const { netboxUrl, netboxToken, ...body } = request.body;
      return {
        data: await services.settings.update({
          ...body,
          inventoryUrl: body.inventoryUrl ?? netboxUrl,
          inventoryToken: body.inventoryToken !== undefined ? body.inventoryToken : netboxToken,
        }),
      };
    },
  );
}
