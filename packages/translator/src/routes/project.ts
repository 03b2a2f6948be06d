import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { isLocalRequest } from '@app/server-kit';
import type { TranslatorServices } from '../services.ts';
import type { TranslatorConfig } from '../config.ts';
import { projectOf } from '../http/auth.ts';
import { Nullable, responses } from '../common/schemas.ts';
import { CrawlerConfig, SettingsPatch, SettingsView } from '../projects/settings.ts';
import { withoutKeys, type Project } from '../projects/projects-service.ts';
import { visibleLanguages } from '../http/session-auth.ts';

const PageKey = Type.String({ description: 'publishable page key (tpk_…) for the install snippet' });

// The keys and the full-key warning are absent from the keyless answer unless the caller is on this host
// and the service is not in production.
export const ProjectSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  api_key: Type.Optional(Type.String()),
  page_key: Type.Optional(PageKey),
  settings: SettingsView,
  full_key_used_from: Type.Optional(
    Nullable(
      Type.Object(
        { origin: Type.String(), at: Type.String() },
        { description: 'the last page origin the full key was used from (the dashboard warns)' },
      ),
    ),
  ),
  created_at: Type.String(),
});

/** The project as a regeneration answers it to the key's holder: both keys always there. */
const KeyedProjectSchema = Type.Object({
  ...ProjectSchema.properties,
  api_key: Type.String(),
  page_key: PageKey,
});

export function projectRoutes(app: FastifyInstance, services: TranslatorServices, config: TranslatorConfig) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { projects } = services;

  api.get(
    '/api',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['project'],
        summary: 'Service name, status and version',
        response: responses({
          200: Type.Object({ name: Type.String(), status: Type.String(), version: Type.String() }),
        }),
      },
    },
    async () => ({ name: 'translator', status: 'ok', version: config.version }),
  );

  api.get(
    '/api/project',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['project'],
        summary:
          'The caller’s project, or the default project when no key is sent. The keyless answer holds ' +
          'the keys only for a caller on this host (loopback, no untrusted proxy in between) outside ' +
          'production: anyone else who could read api_key would own the project.',
        response: responses({ 200: ProjectSchema }),
      },
    },
    async (request) => {
      if (request.project) return asSeenBy(request, await projects.get(request.project.id));
      const project = await projects.getDefault();
      return isLocalRequest(request) && !config.production ? project : withoutKeys(project);
    },
  );

  api.patch(
    '/api/project',
    {
      schema: {
        tags: ['project'],
        summary: 'Rename the project',
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }) }),
        response: responses({ 200: ProjectSchema }),
      },
    },
    async (request) => asSeenBy(request, await projects.rename(projectOf(request).id, request.body.name)),
  );

  api.post(
    '/api/project/regenerate-key',
    {
      config: { access: 'own' },
      schema: {
        tags: ['project'],
        summary: 'Replace the API key; the old key stops working at once',
        response: responses({ 200: KeyedProjectSchema }),
      },
    },
    async (request) => projects.regenerateKey(projectOf(request).id),
  );

  api.post(
    '/api/project/regenerate-page-key',
    {
      config: { access: 'own' },
      schema: {
        tags: ['project'],
        summary: 'Replace the page key; the old one stops working at once (pages need the new snippet)',
        response: responses({ 200: KeyedProjectSchema }),
      },
    },
    async (request) => projects.regeneratePageKey(projectOf(request).id),
  );

  api.delete(
    '/api/project/full-key-warning',
    {
      schema: {
        tags: ['project'],
        summary: 'Dismiss the warning that the full key was used from a page origin',
        response: responses({ 200: ProjectSchema }),
      },
    },
    async (request) => asSeenBy(request, await projects.dismissFullKeyWarning(projectOf(request).id)),
  );

  api.patch(
    '/api/project/settings',
    {
      schema: {
        tags: ['project'],
        summary: 'Update settings (every field optional)',
        body: Type.Object({ settings: SettingsPatch }),
        response: responses({ 200: ProjectSchema }),
      },
    },
    async (request) => {
      const updated = await projects.updateSettings(projectOf(request).id, request.body.settings, {
        isOwnOrigin: (origin) => services.ownAddress.isOwnOrigin(origin, request.socket, request.host),
        seoOriginRefusal: (origin) => services.seo.originRefusal(origin),
      });
      return asSeenBy(request, updated);
    },
  );

  api.get(
    '/api/project/crawler-config',
    {
      schema: {
        tags: ['project'],
        summary: 'What the page client needs to walk a page',
        response: responses({ 200: CrawlerConfig }),
      },
    },
    async (request) => {
      const settings = await projects.settings(projectOf(request).id);
      return { ...settings, languagePaths: settings.seoOrigin !== '' };
    },
  );

  api.post(
    '/api/project/reset-database',
    {
      config: { access: 'own' },
      schema: {
        tags: ['project'],
        summary: 'Delete every phrase and translation of the project (irreversible)',
        response: responses({
          200: Type.Object({
            ok: Type.Boolean(),
            deletedPhrases: Type.Integer(),
            deletedTranslations: Type.Integer(),
          }),
        }),
      },
    },
    async (request) => ({ ok: true, ...(await projects.resetData(projectOf(request).id)) }),
  );
}

/**
 * The project as the caller may see it: the full key and where it was seen only for its holder or an
 * owner; a translator or reviewer sees only their languages.
 */
function asSeenBy(request: FastifyRequest, project: Project) {
  const member = request.member;
  if (!member) return project;
  const { api_key: _key, full_key_used_from: _seen, ...rest } = project;
  const seen = member.role === 'owner' ? project : rest;
  return {
    ...seen,
    settings: { ...project.settings, languages: visibleLanguages(request, project.settings.languages) },
  };
}
