import type { AgentConfig } from '../config.ts';
import { applyService, type ApplyOutcome } from '../apply/apply.ts';
import type { ManagedService } from '../apply/services.ts';
import { REPORT_MESSAGE_MAX, type CertificateReport, type Snapshot } from '../snapshot.ts';
import { holdAcmeToPolicy } from './account.ts';
import { httpChallenges } from './challenges.ts';
import { dnsChallenges } from './dns-challenges.ts';
import { acmeTargets, renewCertificates } from './renewal.ts';
import { AcmeStore } from './store.ts';

/**
 * Obtains and renews the snapshot's certificates (nginx already answers their challenges) and, when
 * one is new, renders nginx again to serve it. Returns that apply's outcome, if there was one.
 */
export async function keepCertificates(
  config: AgentConfig,
  services: ManagedService[],
  snapshot: Snapshot,
  log: Pick<Console, 'error' | 'info'> = console,
  now?: () => number,
): Promise<ApplyOutcome | undefined> {
  const targets = acmeTargets(snapshot.proxy);
  if (!targets.length) return undefined;
  holdAcmeToPolicy(config.acme);
  const store = new AcmeStore(config.nginx.acmeDir);
  const renewed = await renewCertificates(store, targets, {
    retryMs: config.acme.retryMs,
    challenges: ({ challenge }) =>
      challenge.type === 'dns-01'
        ? dnsChallenges(config, challenge.domain, config.acme.dnsPropagationMs)
        : httpChallenges(store),
    now,
    log,
  });
  const nginx = services.find((service) => service.name === 'nginx');
  if (!renewed.length || !nginx) return undefined;
  log.info(`acme: new certificates for ${renewed.join(', ')}`);
  const outcome = await applyService(nginx, snapshot);
  if (outcome.error) log.error(`nginx: new certificates not applied: ${outcome.error}`);
  return outcome;
}

/** What the check-in reports: each kept certificate's expiry, last error and next attempt. */
export async function certificateReports(acmeDir: string): Promise<CertificateReport[]> {
  const statuses = await new AcmeStore(acmeDir).statuses();
  return Object.values(statuses).map(({ hostname, notAfter, lastError, nextAttempt }) => ({
    hostname,
    notAfter,
    lastError: lastError?.slice(0, REPORT_MESSAGE_MAX) ?? null,
    nextAttempt,
  }));
}
