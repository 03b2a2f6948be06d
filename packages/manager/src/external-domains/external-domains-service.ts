import { isAcmeDirectoryUrl, isAuthServerUrl, isDomainName } from '@app/agent/config-values';
import {
  isForeignKeyViolation,
  notFound,
  validationFailed,
  type FieldErrors,
  type SecretBox,
} from '@app/server-kit';
import type { SitesService } from '../sites/sites-service.ts';
import type { DomainWithSite, ExternalDomainsRepository } from './external-domains-repository.ts';
import { nowIso } from '../common/time.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { fail } from '../errors/catalogue.ts';

export interface ExternalDomainView {
  id: number;
  name: string;
  acmeEmail: string | null;
  acmeDirectoryUrl: string | null;
  dnsProviderApiEmail: string | null;
  siteId: number | null;
  site: { id: number; name: string } | null;
  authServer: string | null;
  hasDnsProviderApiKey: boolean;
}

export interface ExternalDomainInput {
  name: string;
  acmeEmail?: string | null | undefined;
  acmeDirectoryUrl?: string | null | undefined;
  dnsProviderApiEmail?: string | null | undefined;
  /** Write-only: blank or omitted keeps the stored key on update. */
  dnsProviderApiKey?: string | null | undefined;
  siteId?: number | null | undefined;
  authServer?: string | null | undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value?.trim() || null;

/** What the service asks of its repository (the specs hand it an in-memory one). */
export type ExternalDomainsStore = Pick<
  ExternalDomainsRepository,
  'listWithSites' | 'withSiteById' | 'insert' | 'providerEmail' | 'update' | 'delete'
>;

/** External domains: where HTTP services are published, their certificates, DNS and auth proxy. */
export class ExternalDomainsService {
  constructor(
    private readonly domains: ExternalDomainsStore,
    private readonly sites: Pick<SitesService, 'exists'>,
    private readonly secrets: SecretBox,
    private readonly audit: Pick<AuditLog, 'audited'>,
  ) {}

  async list(): Promise<ExternalDomainView[]> {
    return (await this.domains.listWithSites()).map(toView);
  }

  async get(id: number): Promise<ExternalDomainView> {
    const row = await this.domains.withSiteById(id);
    if (!row) throw notFound('External domain not found.');
    return toView(row);
  }

  async create(input: ExternalDomainInput): Promise<ExternalDomainView> {
    const values = await this.checked(input);
    const now = nowIso();
    const id = await this.audit.audited(
      (trx) =>
        this.domains.insert(
          {
            name: values.name!,
            acme_email: values.acme_email ?? null,
            acme_directory_url: values.acme_directory_url ?? null,
            dns_provider_api_email: values.dns_provider_api_email ?? null,
            dns_provider_api_key_sealed: values.dns_provider_api_key_sealed ?? null,
            site_id: values.site_id ?? null,
            auth_server: values.auth_server ?? null,
            created_at: now,
            updated_at: now,
          },
          trx,
        ),
      (created) => ({ type: 'external_domain', id: created }),
    );
    return this.get(id);
  }

  /**
   * Full update, except the DNS provider key, which is kept when blank or omitted — as long as it is
   * still sent with the same account e-mail (the provider URL is the operator's); a new account drops it.
   */
  async update(id: number, input: ExternalDomainInput): Promise<ExternalDomainView> {
    const values = await this.checked(input);
    const current = await this.domains.providerEmail(id);
    if (!current) throw notFound('External domain not found.');
    const keyStays = (current.email ?? null) === (values.dns_provider_api_email ?? null);
    const updated = await this.audit.audited((trx) =>
      this.domains.update(
        id,
        {
          name: values.name!,
          acme_email: values.acme_email ?? null,
          acme_directory_url: values.acme_directory_url ?? null,
          dns_provider_api_email: values.dns_provider_api_email ?? null,
          ...(values.dns_provider_api_key_sealed
            ? { dns_provider_api_key_sealed: values.dns_provider_api_key_sealed }
            : keyStays
              ? {}
              : { dns_provider_api_key_sealed: null }),
          site_id: values.site_id ?? null,
          auth_server: values.auth_server ?? null,
          updated_at: nowIso(),
        },
        trx,
      ),
    );
    if (!updated) throw notFound('External domain not found.');
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    try {
      if (!(await this.audit.audited((trx) => this.domains.delete(id, trx))))
        throw notFound('External domain not found.');
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw fail('in_use', 'HTTP services still use this domain: remove them first.');
      }
      throw error;
    }
  }

  private async checked(input: ExternalDomainInput) {
    const fields: FieldErrors = {};
    const name = input.name.trim().toLowerCase();
    if (!isDomainName(name, 2)) fields.name = 'must be a domain name such as example.com';
    const acmeEmail = blankToNull(input.acmeEmail);
    if (acmeEmail && !EMAIL.test(acmeEmail)) fields.acmeEmail = 'must be an e-mail address';
    const acmeDirectoryUrl = blankToNull(input.acmeDirectoryUrl);
    if (acmeDirectoryUrl && !isAcmeDirectoryUrl(acmeDirectoryUrl)) {
      fields.acmeDirectoryUrl =
        'must be an https URL (ACME directories are served over HTTPS), such as https://acme-v02.api.letsencrypt.org/directory';
    }
    const authServer = blankToNull(input.authServer);
    // It goes into nginx's proxy_pass as it is: the grammar leaves nothing nginx would read as syntax.
    if (authServer && !isAuthServerUrl(authServer)) {
      fields.authServer =
        'must be an http(s) URL, such as http://127.0.0.1:4180: a host, an optional port and a path of letters, digits and . _ ~ % / + - only';
    }
    const siteId = input.siteId ?? null;
    if (siteId !== null && !(await this.sites.exists(siteId))) {
      fields.siteId = 'names a site that does not exist';
    }
    if (Object.keys(fields).length) throw validationFailed(fields);
    const key = blankToNull(input.dnsProviderApiKey);
    return {
      name,
      acme_email: acmeEmail,
      acme_directory_url: acmeDirectoryUrl,
      dns_provider_api_email: blankToNull(input.dnsProviderApiEmail),
      dns_provider_api_key_sealed: key ? this.secrets.seal(key) : undefined,
      site_id: siteId,
      auth_server: authServer,
    };
  }
}

function toView(row: DomainWithSite): ExternalDomainView {
  return {
    id: row.id,
    name: row.name,
    acmeEmail: row.acme_email,
    acmeDirectoryUrl: row.acme_directory_url,
    dnsProviderApiEmail: row.dns_provider_api_email,
    siteId: row.site_id,
    site: row.site_id !== null && row.site_name ? { id: row.site_id, name: row.site_name } : null,
    authServer: row.auth_server,
    hasDnsProviderApiKey: Boolean(row.dns_provider_api_key_sealed),
  };
}
