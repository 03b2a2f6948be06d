import type { Kysely } from 'kysely';
import { forbidden, validationFailed } from '@app/server-kit';
import type { CheckinBody, ServiceReport } from '@app/agent/snapshot';
import type { ManagerDB } from '../db/schema.ts';
import type { AgentsRepository } from './agents-repository.ts';
import { nowIso } from '../common/time.ts';
import type { SnapshotCache } from './snapshot-cache.ts';
import type { CertificatesService } from '../certificates/certificates-service.ts';
import { fail } from '../errors/catalogue.ts';

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
    private readonly repo: AgentsRepository,
    private readonly snapshots: SnapshotCache,
    private readonly certificates: Pick<CertificatesService, 'report'>,
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
    if (!snapshot) throw fail('site_not_found', 'Site not found.');
    await this.record(siteId, body as CheckinBody);
    if (body.volumes?.length) await this.volumeResults(siteId, body.volumes);
    if (body.volumeRemovals?.length) await this.removalResults(siteId, body.volumeRemovals);
    if (body.certificates) await this.certificates.report(siteId, body.certificates);
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
    await this.repo.upsert(siteId, hostname, { ipv4_address: ipv4, services, last_checkin_at: nowIso() });
    this.written.set(key, { fingerprint, at: Date.now() });
  }

  /** What the agent made of the volumes it prepared; only volumes of its own site are touched. */
  private async volumeResults(siteId: number, results: NonNullable<CheckinBody['volumes']>) {
    await this.db.transaction().execute(async (trx) => {
      for (const result of results) {
        if (!Number.isInteger(result.id) || !['ready', 'failed'].includes(result.status)) continue;
        await this.repo.setVolumeResult(trx, siteId, result.id, {
          status: result.status,
          // An empty message is none.
          status_message: result.message || null,
          applied_at: nowIso(),
        });
      }
    });
  }

  /**
   * What the agent made of the kept volume folders it was to remove: a removed one's row goes, a
   * failed one stays with the reason (an administrator may ask again). Only rows of its own site.
   */
  private async removalResults(siteId: number, results: NonNullable<CheckinBody['volumeRemovals']>) {
    await this.db.transaction().execute(async (trx) => {
      for (const result of results) {
        if (!Number.isInteger(result.id)) continue;
        if (result.status === 'removed') {
          await this.repo.deleteRemovedKeptVolume(trx, siteId, result.id);
        } else if (result.status === 'failed') {
          await this.repo.markKeptVolumeRemoveFailed(trx, siteId, result.id, result.message || null);
        }
      }
    });
  }

  async list(): Promise<AgentRecord[]> {
    const rows = await this.repo.listWithSites();
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
      const siteId = await this.repo.siteOfService(serviceId);
      if (siteId === undefined) return false;
      if (siteId !== onlySite) throw otherSite(onlySite);
    }
    const now = new Date();
    const notBefore = new Date(now.getTime() - 600_000).toISOString();
    if (await this.repo.touchService(serviceId, now.toISOString(), notBefore)) return true;
    return this.repo.serviceExists(serviceId);
  }
}
