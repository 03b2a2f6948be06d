import { readTextLimited } from '@app/server-kit';

/**
 * The few Cloudflare API v4 calls cross-site A records and ACME DNS-01 challenges need. Errors carry
 * Cloudflare's own messages.
 */
export interface DnsCredentials {
  apiEmail: string | null;
  apiKey: string;
}

interface Envelope<T> {
  success: boolean;
  errors?: Array<{ code: number; message: string }>;
  result: T;
}

export class DnsProviderError extends Error {
  override name = 'DnsProviderError';
}

/** One record at the provider, as far as the manager looks at it. */
export interface DnsRecord {
  id: string;
  type: string;
  content: string;
}

/** A page of records is a few KiB; an answer is never read past this. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export class CloudflareClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  private headers(credentials: DnsCredentials): Record<string, string> {
    // A global API key goes with the account e-mail; otherwise the key is an API token.
    return credentials.apiEmail
      ? { 'x-auth-email': credentials.apiEmail, 'x-auth-key': credentials.apiKey }
      : { authorization: `Bearer ${credentials.apiKey}` };
  }

  private async call<T>(
    credentials: DnsCredentials,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...this.headers(credentials),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new DnsProviderError(
        `DNS provider unreachable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    let envelope: Envelope<T> | undefined;
    try {
      envelope = JSON.parse(await readTextLimited(response, MAX_ANSWER_BYTES)) as Envelope<T>;
    } catch {
      envelope = undefined;
    }
    if (!response.ok || !envelope?.success) {
      const detail = envelope?.errors?.map((error) => `${error.code} ${error.message}`).join('; ');
      throw new DnsProviderError(`DNS provider answered ${response.status}${detail ? `: ${detail}` : ''}`);
    }
    return envelope.result;
  }

  async zoneId(credentials: DnsCredentials, name: string): Promise<string> {
    const zones = await this.call<Array<{ id: string }>>(
      credentials,
      'GET',
      `/zones?name=${encodeURIComponent(name)}`,
    );
    if (!zones[0]) throw new DnsProviderError(`no DNS zone named ${name} at the provider`);
    return zones[0].id;
  }

  /** Every record of `fqdn`, whatever its type. */
  findRecords(credentials: DnsCredentials, zoneId: string, fqdn: string) {
    return this.call<DnsRecord[]>(
      credentials,
      'GET',
      `/zones/${encodeURIComponent(zoneId)}/dns_records?name=${encodeURIComponent(fqdn)}&per_page=100`,
    );
  }

  async createA(credentials: DnsCredentials, zoneId: string, fqdn: string, ip: string): Promise<void> {
    await this.create(credentials, zoneId, { type: 'A', name: fqdn, content: ip, proxied: false });
  }

  async createTxt(credentials: DnsCredentials, zoneId: string, fqdn: string, text: string): Promise<void> {
    await this.create(credentials, zoneId, { type: 'TXT', name: fqdn, content: text });
  }

  private async create(credentials: DnsCredentials, zoneId: string, record: Record<string, unknown>) {
    await this.call(credentials, 'POST', `/zones/${encodeURIComponent(zoneId)}/dns_records`, {
      ...record,
      ttl: 1,
    });
  }

  async deleteRecord(credentials: DnsCredentials, zoneId: string, recordId: string): Promise<void> {
    await this.call(
      credentials,
      'DELETE',
      `/zones/${encodeURIComponent(zoneId)}/dns_records/${encodeURIComponent(recordId)}`,
    );
  }
}
