import { randomHex } from '../shared/ids.ts';
import { FakeHttpError } from '../shared/types.ts';

export interface CfError {
  code: number;
  message: string;
  error_chain?: CfError[];
}

/** An error rendered in the v4 envelope: `{success:false, errors:[...], messages:[], result:null}`. */
export function cfError(status: number, ...errors: CfError[]): FakeHttpError {
  return new FakeHttpError(status, errors[0]?.message ?? 'error', errors);
}

export interface Zone {
  id: string;
  name: string;
  status: 'active' | 'pending';
  created_on: string;
  modified_on: string;
  activated_on: string;
}

export interface DnsRecord {
  id: string;
  zone_id: string;
  zone_name: string;
  name: string;
  type: string;
  content: string;
  proxiable: boolean;
  proxied: boolean;
  ttl: number;
  priority?: number;
  locked: boolean;
  comment: string | null;
  tags: string[];
  meta: Record<string, unknown>;
  created_on: string;
  modified_on: string;
}

const TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'SRV', 'CAA', 'PTR', 'HTTPS', 'SVCB'];

/** Normalises and validates a record body like the DNS records API; returns the fields to store. */
export function validateRecord(
  zone: Zone,
  body: Record<string, unknown>,
): Omit<DnsRecord, 'id' | 'created_on' | 'modified_on'> {
  const type = String(body.type ?? '').toUpperCase();
  if (!TYPES.includes(type)) throw cfError(400, { code: 9004, message: 'DNS record type is invalid.' });
  const rawName = String(body.name ?? '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (!rawName) throw cfError(400, { code: 9007, message: 'DNS record name is required.' });
  const name =
    rawName === '@'
      ? zone.name
      : rawName === zone.name || rawName.endsWith(`.${zone.name}`)
        ? rawName
        : `${rawName}.${zone.name}`;
  if (!/^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name)) {
    throw cfError(400, { code: 9005, message: 'DNS name is invalid.' });
  }
  const content = String(body.content ?? '');
  if (type === 'A' && !/^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(content)) {
    throw cfError(400, { code: 9005, message: 'Content for A record must be a valid IPv4 address.' });
  }
  if (type === 'AAAA' && !/^[0-9a-f:]+$/i.test(content)) {
    throw cfError(400, { code: 9005, message: 'Content for AAAA record must be a valid IPv6 address.' });
  }
  if (!content && type !== 'SRV')
    throw cfError(400, { code: 9021, message: 'DNS record content is required.' });
  const ttl = body.ttl === undefined ? 1 : Number(body.ttl);
  if (!(ttl === 1 || (Number.isInteger(ttl) && ttl >= 60 && ttl <= 86_400))) {
    throw cfError(400, {
      code: 9021,
      message: 'Invalid TTL. Must be between 60 and 86400 seconds, or 1 for Automatic.',
    });
  }
  const proxiable = ['A', 'AAAA', 'CNAME'].includes(type);
  const proxied = body.proxied === true;
  if (proxied && !proxiable)
    throw cfError(400, { code: 9004, message: `This record type cannot be proxied.` });
  const record: Omit<DnsRecord, 'id' | 'created_on' | 'modified_on'> = {
    zone_id: zone.id,
    zone_name: zone.name,
    name,
    type,
    content,
    proxiable,
    proxied,
    ttl,
    locked: false,
    comment: typeof body.comment === 'string' ? body.comment : null,
    tags: Array.isArray(body.tags) ? body.tags.map(String) : [],
    meta: { auto_added: false, managed_by_apps: false, managed_by_argo_tunnel: false, source: 'primary' },
  };
  if (body.priority !== undefined) record.priority = Number(body.priority);
  return record;
}

/** Rules the API enforces between records: no identical record, CNAME exclusive with A/AAAA/CNAME. */
export function checkConflicts(
  existing: DnsRecord[],
  record: Omit<DnsRecord, 'id' | 'created_on' | 'modified_on'>,
): void {
  const sameName = existing.filter((r) => r.name === record.name);
  if (sameName.some((r) => r.type === record.type && r.content === record.content)) {
    throw cfError(400, { code: 81058, message: 'An identical record already exists.' });
  }
  const addressish = ['A', 'AAAA', 'CNAME'];
  if (
    (record.type === 'CNAME' && sameName.some((r) => addressish.includes(r.type))) ||
    (addressish.includes(record.type) && sameName.some((r) => r.type === 'CNAME'))
  ) {
    throw cfError(400, {
      code: 81053,
      message: 'An A, AAAA, or CNAME record with that host already exists.',
    });
  }
}

export function newId(): string {
  return randomHex(16);
}
