import { FakeServer } from '../shared/fake-server.ts';
import type { FakeServerOptions } from '../shared/fake-server.ts';
import { parseJsonBody } from '../shared/ids.ts';
import { Router } from '../shared/router.ts';
import { jsonReply } from '../shared/types.ts';
import type { FakeHttpError, FakeReply, FakeRequest } from '../shared/types.ts';
import { checkConflicts, cfError, newId, validateRecord } from './records.ts';
import type { CfError, DnsRecord, Zone } from './records.ts';

export interface CloudflareFakeOptions extends FakeServerOptions {
  /** API tokens accepted as `Authorization: Bearer <token>`. */
  tokens?: string[];
  /** Global API keys: `{ 'ops@example.com': '<37 hex chars>' }` for `X-Auth-Email` + `X-Auth-Key`. */
  globalKeys?: Record<string, string>;
  /** Zones to create at start. */
  zones?: string[];
}

const BASE = '/client/v4';

/** A Cloudflare API v4 fake: zones lookup and DNS records, in the v4 envelope, with both auth schemes. */
export class CloudflareFake extends FakeServer {
  protected readonly router = new Router();
  readonly zones = new Map<string, Zone>();
  readonly records = new Map<string, DnsRecord>();
  private readonly tokens: Set<string>;
  private readonly globalKeys: Map<string, string>;

  constructor(options: CloudflareFakeOptions = {}) {
    super(options);
    this.tokens = new Set(options.tokens ?? []);
    this.globalKeys = new Map(Object.entries(options.globalKeys ?? {}));
    for (const zone of options.zones ?? []) this.addZone(zone);
    this.router
      .get(`${BASE}/zones`, (req) => {
        const name = req.query.get('name');
        const status = req.query.get('status');
        const zones = [...this.zones.values()].filter(
          (z) => (!name || z.name === name) && (!status || z.status === status),
        );
        return this.page(req, zones.map(zoneView));
      })
      .get(`${BASE}/zones/:zone`, (req) => ok(zoneView(this.zone(req))))
      .get(`${BASE}/zones/:zone/dns_records`, (req) => {
        const zone = this.zone(req);
        const q = req.query;
        const name = q.get('name') ?? q.get('name.exact');
        const rows = this.zoneRecords(zone).filter(
          (r) =>
            (!q.get('type') || r.type === q.get('type')) &&
            (!name || r.name === name.toLowerCase()) &&
            (!q.get('content') || r.content === q.get('content')),
        );
        return this.page(req, rows);
      })
      .post(`${BASE}/zones/:zone/dns_records`, (req) => {
        const zone = this.zone(req);
        const record = validateRecord(zone, this.body(req));
        checkConflicts(this.zoneRecords(zone), record);
        const now = new Date().toISOString();
        const stored: DnsRecord = { id: newId(), ...record, created_on: now, modified_on: now };
        this.records.set(stored.id, stored);
        return ok(stored);
      })
      .get(`${BASE}/zones/:zone/dns_records/:record`, (req) => ok(this.record(req)))
      .add('PUT', `${BASE}/zones/:zone/dns_records/:record`, (req) => this.update(req, false))
      .add('PATCH', `${BASE}/zones/:zone/dns_records/:record`, (req) => this.update(req, true))
      .delete(`${BASE}/zones/:zone/dns_records/:record`, (req) => {
        const record = this.record(req);
        this.records.delete(record.id);
        return ok({ id: record.id });
      });
  }

  /** `http://127.0.0.1:<port>/client/v4` */
  get apiUrl(): string {
    return `${this.url}${BASE}`;
  }

  addZone(name: string, status: Zone['status'] = 'active'): Zone {
    const now = new Date().toISOString();
    const zone: Zone = {
      id: newId(),
      name: name.toLowerCase(),
      status,
      created_on: now,
      modified_on: now,
      activated_on: now,
    };
    this.zones.set(zone.id, zone);
    return zone;
  }

  addToken(token: string): void {
    this.tokens.add(token);
  }

  addGlobalKey(email: string, key: string): void {
    this.globalKeys.set(email, key);
  }

  /** Records of a zone by zone name (for assertions). */
  recordsOf(zoneName: string): DnsRecord[] {
    const zone = [...this.zones.values()].find((z) => z.name === zoneName);
    return zone ? this.zoneRecords(zone) : [];
  }

  protected override beforeRoute(req: FakeRequest): void {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const token = /^Bearer (\S+)$/.exec(String(authorization));
      if (!token) throw cfError(400, invalidHeaders(6111, 'Invalid format for Authorization header'));
      if (!this.tokens.has(token[1]!)) throw cfError(403, { code: 10000, message: 'Authentication error' });
      return;
    }
    const email = req.headers['x-auth-email'];
    const key = req.headers['x-auth-key'];
    if (email === undefined && key === undefined) {
      throw cfError(
        400,
        { code: 9106, message: 'Missing X-Auth-Email header' },
        { code: 9107, message: 'Missing X-Auth-Key header' },
      );
    }
    if (key === undefined) throw cfError(400, { code: 9107, message: 'Missing X-Auth-Key header' });
    if (email === undefined) throw cfError(400, { code: 9106, message: 'Missing X-Auth-Email header' });
    if (!/^[0-9a-f]{37}$/.test(String(key)))
      throw cfError(400, invalidHeaders(6103, 'Invalid format for X-Auth-Key header'));
    if (!/^[^@\s]+@[^@\s]+$/.test(String(email)))
      throw cfError(400, invalidHeaders(6102, 'Invalid format for X-Auth-Email header'));
    if (this.globalKeys.get(String(email)) !== key)
      throw cfError(403, { code: 9103, message: 'Unknown X-Auth-Key or X-Auth-Email' });
  }

  protected override notFound(req: FakeRequest): FakeHttpError {
    return cfError(
      400,
      {
        code: 7003,
        message: `Could not route to ${req.path.replace(BASE, '')}, perhaps your object identifier is invalid?`,
      },
      { code: 7000, message: 'No route for that URI' },
    );
  }

  protected renderError(err: FakeHttpError): FakeReply {
    // Injected failures: 971 is the rate-limit code; the others are generic.
    const code = err.status === 429 ? 971 : err.status >= 500 ? 10001 : 10000;
    const errors = Array.isArray(err.details) ? (err.details as CfError[]) : [{ code, message: err.message }];
    return jsonReply(err.status, { success: false, errors, messages: [], result: null });
  }

  private zone(req: FakeRequest): Zone {
    const zone = this.zones.get(req.params.zone!);
    if (!zone) throw this.notFound(req);
    return zone;
  }

  private record(req: FakeRequest): DnsRecord {
    const zone = this.zone(req);
    const record = this.records.get(req.params.record!);
    if (!record || record.zone_id !== zone.id)
      throw cfError(404, { code: 81044, message: 'Record does not exist.' });
    return record;
  }

  private zoneRecords(zone: Zone): DnsRecord[] {
    return [...this.records.values()].filter((r) => r.zone_id === zone.id);
  }

  private body(req: FakeRequest): Record<string, unknown> {
    const parsed = parseJsonBody(req.body);
    if (!parsed || typeof parsed.value !== 'object' || parsed.value === null) {
      throw cfError(400, { code: 9207, message: 'Request body is invalid.' });
    }
    return parsed.value as Record<string, unknown>;
  }

  private update(req: FakeRequest, partial: boolean): FakeReply {
    const current = this.record(req);
    const zone = this.zone(req);
    const body = partial ? { ...current, ...this.body(req) } : this.body(req);
    const record = validateRecord(zone, body);
    checkConflicts(
      this.zoneRecords(zone).filter((r) => r.id !== current.id),
      record,
    );
    const updated: DnsRecord = {
      ...record,
      id: current.id,
      created_on: current.created_on,
      modified_on: new Date().toISOString(),
    };
    this.records.set(updated.id, updated);
    return ok(updated);
  }

  private page(req: FakeRequest, rows: unknown[]): FakeReply {
    const perPage = Math.min(Math.max(Number(req.query.get('per_page') ?? 20) || 20, 5), 5000);
    const page = Math.max(Number(req.query.get('page') ?? 1) || 1, 1);
    const slice = rows.slice((page - 1) * perPage, page * perPage);
    const info = {
      page,
      per_page: perPage,
      count: slice.length,
      total_count: rows.length,
      total_pages: Math.ceil(rows.length / perPage),
    };
    return jsonReply(200, { result: slice, result_info: info, success: true, errors: [], messages: [] });
  }
}

function ok(result: unknown): FakeReply {
  return jsonReply(200, { result, success: true, errors: [], messages: [] });
}

function invalidHeaders(code: number, message: string): CfError {
  return { code: 6003, message: 'Invalid request headers', error_chain: [{ code, message }] };
}

function zoneView(zone: Zone): Record<string, unknown> {
  return {
    ...zone,
    paused: false,
    type: 'full',
    development_mode: 0,
    name_servers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'],
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    meta: { step: 2, custom_certificate_quota: 0, page_rule_quota: 3, phishing_detected: false },
    owner: { id: null, type: 'user', email: null },
    account: { id: '01a7362d577a6c3019a474fd6f485823', name: 'Fake Account' },
    permissions: ['#dns_records:edit', '#dns_records:read', '#zone:read'],
    plan: {
      id: '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
      name: 'Free Website',
      price: 0,
      currency: 'USD',
      frequency: '',
      is_subscribed: false,
      can_subscribe: false,
      legacy_id: 'free',
      legacy_discount: false,
      externally_managed: false,
    },
  };
}
