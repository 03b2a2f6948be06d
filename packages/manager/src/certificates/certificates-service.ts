import type { Kysely } from 'kysely';
import type { CertificateReport } from '@app/agent/snapshot';
import type { ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { BackgroundTasks } from '../common/background.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Notices } from '../notifications/notices.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import type { CertificatesRepository } from './certificates-repository.ts';

/** A certificate as the External domains page shows it. */
export interface CertificateView {
  hostname: string;
  siteId: number;
  siteName: string;
  notAfter: string | null;
  lastError: string | null;
  nextAttempt: string | null;
  reportedAt: string;
}

/**
 * Keeps what the site agents report of their ACME certificates, and tells the administrators (a
 * notification each, and an e-mail when SMTP is set up) when one starts failing: once per failure,
 * not at every attempt the agent makes.
 */
export class CertificatesService {
  /** The last report stored per site, so an unchanged check-in does not write. */
  private readonly stored = new Map<number, string>();

  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly repo: CertificatesRepository,
    private readonly notices: Pick<Notices, 'certificatesFailing'>,
    private readonly users: Pick<UsersRepository, 'activeAdminMails'>,
    private readonly mailer: Pick<Mailer, 'configured' | 'send'>,
    private readonly background: Pick<BackgroundTasks, 'run'>,
  ) {}

  async report(siteId: number, reports: CertificateReport[]): Promise<void> {
    const fingerprint = JSON.stringify(reports);
    if (this.stored.get(siteId) === fingerprint) return;
    const failing = await this.db.transaction().execute(async (trx) => {
      const failed = new Set(
        (await this.repo.ofSite(trx, siteId)).filter((row) => row.last_error).map((row) => row.hostname),
      );
      const updatedAt = nowIso();
      await this.repo.replaceOfSite(
        trx,
        siteId,
        reports.map((report) => ({
          site_id: siteId,
          hostname: report.hostname,
          not_after: report.notAfter,
          last_error: report.lastError || null,
          next_attempt: report.nextAttempt,
          updated_at: updatedAt,
        })),
      );
      const newly = reports.filter((report) => report.lastError && !failed.has(report.hostname));
      if (newly.length) await this.notices.certificatesFailing(trx, siteId, newly);
      return newly;
    });
    this.stored.set(siteId, fingerprint);
    if (failing.length) this.background.run('certificate failure e-mail', () => this.mail(failing));
  }

  private async mail(failing: CertificateReport[]) {
    if (!(await this.mailer.configured())) return;
    const lines = failing.map(
      (report) =>
        `${report.hostname}: ${report.lastError}\n  current certificate expires: ${report.notAfter ?? 'none yet'}; next attempt: ${report.nextAttempt ?? 'unknown'}`,
    );
    for (const to of await this.users.activeAdminMails()) {
      await this.mailer.send({
        to,
        subject: `Certificate ${failing.length === 1 ? 'renewal' : 'renewals'} failing: ${failing.map((r) => r.hostname).join(', ')}`,
        text:
          `The site agent could not obtain or renew these certificates; the last good ones stay in use and it keeps trying:\n\n` +
          `${lines.join('\n')}\n`,
      });
    }
  }

  async ofDomain(domainId: number): Promise<CertificateView[]> {
    return (await this.repo.ofDomain(domainId)).map((row) => ({
      hostname: row.hostname,
      siteId: row.site_id,
      siteName: row.site_name,
      notAfter: row.not_after,
      lastError: row.last_error,
      nextAttempt: row.next_attempt,
      reportedAt: row.updated_at,
    }));
  }
}
