import * as acme from 'acme-client';
import type { ProxySnapshot } from '../snapshot.ts';
import { accountClient, LETS_ENCRYPT } from './account.ts';
import type { Challenges } from './challenges.ts';
import { certificateNameOf } from './names.ts';
import { obtainCertificate } from './order.ts';
import type { AcmeStore, CertificateStatus } from './store.ts';

/** A certificate to keep, the ACME account that obtains it, and how it is validated. */
export interface AcmeTarget {
  /** The names it is for; the first names it in the store and in reports (`*.example.com`). */
  names: string[];
  email: string;
  directoryUrl: string;
  /** HTTP-01 by the agent's nginx, or DNS-01 by the manager for this external domain. */
  challenge: { type: 'http-01' } | { type: 'dns-01'; domain: string };
}

/**
 * A wildcard certificate per external domain the manager answers DNS-01 for, and one certificate per
 * HTTP service host of another domain with an ACME contact (or too deep for its domain's wildcard).
 */
export function acmeTargets(proxy: ProxySnapshot): AcmeTarget[] {
  const domains = new Map(proxy.externalDomains.map((domain) => [domain.name, domain]));
  const targets = new Map<string, AcmeTarget>();
  for (const service of proxy.httpServices) {
    const domain = domains.get(service.domain);
    if (!domain?.acmeEmail) continue;
    const account = { email: domain.acmeEmail, directoryUrl: domain.acmeDirectoryUrl ?? LETS_ENCRYPT };
    const name = certificateNameOf(service.host, domain);
    if (name !== service.host) {
      targets.set(name, {
        names: [name, domain.name],
        ...account,
        challenge: { type: 'dns-01', domain: domain.name },
      });
    } else {
      targets.set(service.host, { names: [service.host], ...account, challenge: { type: 'http-01' } });
    }
  }
  return [...targets.values()];
}

export interface RenewalOptions {
  /** The first retry's delay after a failure; it doubles with each further failure, up to a day. */
  retryMs: number;
  /** How a target's challenges are answered. */
  challenges: (target: AcmeTarget) => Challenges;
  now?: () => number;
  log?: Pick<Console, 'error'>;
}

const DAY_MS = 86_400_000;

/** Renewal at two thirds of the lifetime: a 90-day certificate 30 days before it expires. */
function renewalTime(fullchain: string): { notAfter: string; renewAt: string } {
  const { notBefore, notAfter } = acme.crypto.readCertificateInfo(fullchain);
  const renewAt = notBefore.getTime() + ((notAfter.getTime() - notBefore.getTime()) * 2) / 3;
  return { notAfter: notAfter.toISOString(), renewAt: new Date(renewAt).toISOString() };
}

async function knownStatus(store: AcmeStore, host: string): Promise<CertificateStatus> {
  const fullchain = await store.certificate(host);
  const times = fullchain ? renewalTime(fullchain) : undefined;
  return {
    hostname: host,
    notAfter: times?.notAfter ?? null,
    lastError: null,
    nextAttempt: times?.renewAt ?? null,
    failures: 0,
  };
}

/**
 * Obtains the certificates that are missing or due for renewal and whose back-off has passed. A
 * failure leaves the last good certificate in place and records the error and the next attempt.
 * Returns the hosts with a new certificate.
 */
export async function renewCertificates(
  store: AcmeStore,
  targets: AcmeTarget[],
  { retryMs, challenges, now = Date.now, log = console }: RenewalOptions,
): Promise<string[]> {
  const previous = await store.statuses();
  const statuses: Record<string, CertificateStatus> = {};
  const renewed: string[] = [];
  for (const target of targets) {
    const { names, email, directoryUrl } = target;
    const host = names[0]!;
    const status = previous[host] ?? (await knownStatus(store, host));
    statuses[host] = status;
    if (status.nextAttempt && Date.parse(status.nextAttempt) > now()) continue;
    try {
      const client = await accountClient(store, directoryUrl, email);
      const fullchain = await obtainCertificate(client, store, names, directoryUrl, challenges(target));
      const { notAfter, renewAt } = renewalTime(fullchain);
      statuses[host] = { hostname: host, notAfter, lastError: null, nextAttempt: renewAt, failures: 0 };
      renewed.push(host);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const failures = status.failures + 1;
      const delay = Math.min(retryMs * 2 ** (failures - 1), DAY_MS);
      statuses[host] = {
        ...status,
        lastError: message,
        failures,
        nextAttempt: new Date(now() + delay).toISOString(),
      };
      log.error(`acme: ${host}: no certificate (attempt ${failures}): ${message}`);
    }
    await store.saveStatuses({ ...previous, ...statuses });
  }
  await store.saveStatuses(statuses);
  return renewed;
}
