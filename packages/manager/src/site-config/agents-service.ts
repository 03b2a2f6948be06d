import type { Kysely } from 'kysely';
import { forbidden, notFound, validationFailed } from '@app/server-kit';
import type { CheckinBody, ServiceReport } from '@app/agent/snapshot';
import type { ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { SnapshotCache } from './snapshot-cache.ts';

/** An agent record, as GET /agents shows it. */
export interface AgentRecord {
  id: number;
  siteId: number;
  siteName: string | null;
  hostname: string;
  ipv4Address: string | null;
  services: Record<string, ServiceReport> | null;
  lastCheckinAt: string | null;
  secondsSinceCheckin: number | null;
}

const otherSite = (siteId: number) =>
  forbidden(`This agent token belongs to site ${siteId}: it reports for that site only.`);

/** A record unchanged apart from its time is written at most this often. */
const RECORD_REFRESH_MS = 15_000;

export type CheckinAnswer = { status: 304; etag: string } | { status: 200; etag: string; body: string };

export class AgentsService {
  /** What was last written per agent, so an unchanged check-in does not write. */
  private readonly written = new Map<string, { fingerprint: string; at: number }>();

  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly snapshots: SnapshotCache,
  ) {}

  /** `onlySite`: the caller is the agent of that site (an agent token), and may check in for it only. */
  async checkIn(
    body: Partial<CheckinBody>,
    ifNoneMatch: string | undefined,
    onlySite?: number,
  ): Promise<CheckinAnswer> {
    const fields: Record<string, string> = {};
    if (!Number.isInteger(body.siteId)) fields.siteId = 'is required (an integer)';
    if (typeof body.hostname !== 'string' || !body.hostname.trim()) fields.hostname = 'is required';
    if (Object.keys(fields).length) throw validationFailed(fields);
    const siteId = body.siteId!;
    if (onlySite !== undefined && siteId !== onlySite) throw otherSite(onlySite);
    const snapshot = await this.snapshots.get(siteId);
    if (!snapshot) throw notFound('Site not found.', 'site_not_found');
    await this.record(siteId, body as CheckinBody);
    if (body.volumes?.length) await this.volumeResults(siteId, body.volumes);
    const matches =
      ifNoneMatch === snapshot.etag ||
      ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === snapshot.etag);
    return matches
      ? { status: 304, etag: snapshot.etag }
      : { status: 200, etag: snapshot.etag, body: snapshot.body };
  }

  private async record(siteId: number, body: CheckinBody) {
    const hostname = body.hostname.trim();
    const services =
      body.services && typeof body.services === 'object' ? JSON.stringify(body.services) : null;
    const ipv4 = typeof body.ipv4Address === 'string' ? body.ipv4Address : null;
    const key = `${siteId}\u0000${hostname}`;
    const fingerprint = `${services}\u0000${ipv4}`;
    const last = this.written.get(key);
    if (last && last.fingerprint === fingerprint && Date.now() - last.at < RECORD_REFRESH_MS) return;
    const values = { ipv4_address: ipv4, services, last_checkin_at: nowIso() };
    await this.db
      .insertInto('agents')
      .values({ site_id: siteId, hostname, ...values })
      .onConflict((oc) => oc.columns(['site_id', 'hostname']).doUpdateSet(values))
      .execute();
    this.written.set(key, { fingerprint, at: Date.now() });
  }

  /** What the agent made of the volumes it prepared; only volumes of its own site are touched. */
  private async volumeResults(siteId: number, results: NonNullable<CheckinBody['volumes']>) {
    await this.db.transaction().execute(async (trx) => {
      for (const result of results) {
        if (!Number.isInteger(result.id) || !['ready', 'failed'].includes(result.status)) continue;
        await trx
          .updateTable('volumes')
          // An empty message is none.
          .set({ status: result.status, status_message: result.message || null, applied_at: nowIso() })
          .where('id', '=', result.id)
          .where('container_id', 'in', (eb) =>
            eb
              .selectFrom('containers')
              .innerJoin('nodes', 'nodes.id', 'containers.node_id')
              .select('containers.id')
              .where('nodes.site_id', '=', siteId),
          )
          .execute();
      }
    });
  }

  async list(): Promise<AgentRecord[]> {
    const rows = await this.db
      .selectFrom('agents')
      .leftJoin('sites', 'sites.id', 'agents.site_id')
      .select([
        'agents.id',
        'agents.site_id',
        'sites.name as site_name',
        'agents.hostname',
        'agents.ipv4_address',
        'agents.services',
        'agents.last_checkin_at',
      ])
      .orderBy('agents.site_id')
      .orderBy('agents.hostname')
      .execute();
    const now = Date.now();
    return rows.map((row) => ({
      id: row.id,
      siteId: row.site_id,
      siteName: row.site_name,
      hostname: row.hostname,
      ipv4Address: row.ipv4_address,
      services: row.services ? (JSON.parse(row.services) as AgentRecord['services']) : null,
      lastCheckinAt: row.last_checkin_at,
      secondsSinceCheckin: row.last_checkin_at
        ? Math.max(0, Math.floor((now - Date.parse(row.last_checkin_at)) / 1000))
        : null,
    }));
  }

  /**
   * Sets a service's last access to now, at most once per 10 minutes; false when it does not exist.
   * `onlySite`: the caller is the agent of that site, and may report its services only.
   */
  async touchService(serviceId: number, onlySite?: number): Promise<boolean> {
    if (onlySite !== undefined) {
      const service = await this.db
        .selectFrom('services')
        .innerJoin('containers', 'containers.id', 'services.container_id')
        .innerJoin('nodes', 'nodes.id', 'containers.node_id')
        .select('nodes.site_id')
        .where('services.id', '=', serviceId)
        .executeTakeFirst();
      if (!service) return false;
      if (service.site_id !== onlySite) throw otherSite(onlySite);
    }
    const now = new Date();
    const result = await this.db
      .updateTable('services')
      .set({ last_accessed_at: now.toISOString() })
      .where('id', '=', serviceId)
      .where((eb) =>
        eb.or([
          eb('last_accessed_at', 'is', null),
          eb('last_accessed_at', '<', new Date(now.getTime() - 600_000).toISOString()),
        ]),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows)) return true;
    return Boolean(
      await this.db.selectFrom('services').select('id').where('id', '=', serviceId).executeTakeFirst(),
    );
  }
}
