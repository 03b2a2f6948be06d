import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudflareFake } from '@app/fakes';
import type { ManagerClient } from '@app/manager/testing';
import { keepCertificates } from '../src/acme/certificates.ts';
import { AcmeStore } from '../src/acme/store.ts';
import { nginxService } from '../src/apply/services.ts';
import { runOnce } from '../src/run.ts';
import { loadSnapshot } from '../src/state.ts';
import type { AgentConfig } from '../src/config.ts';
import { servedCertificate, type Pebble } from './pebble.ts';
import { eventually } from './sandbox.ts';
import { ACME_DOMAIN, startAcmeSite, type AcmeSite } from './acme-site.ts';

const DOMAIN = ACME_DOMAIN;
const CHALLENGE_NAME = `_acme-challenge.${DOMAIN}`;
const CF_TOKEN = 'cf-dns01-token';

/**
 * A wildcard certificate by DNS-01: the agent asks the manager to set the `_acme-challenge` TXT records
 * at the domain's DNS provider (the Cloudflare fake; the agent never holds its key), Pebble reads them
 * from pebble-challtestsrv (which the test keeps in step with the fake's TXT records, as the provider's
 * name servers would be), nginx serves the wildcard for every host of the domain.
 */
describe('wildcard certificates by DNS-01 through the manager, the DNS provider and Pebble', () => {
  let site: AcmeSite;
  let admin: ManagerClient;
  let cloudflare: CloudflareFake;
  let pebble: Pebble;
  let config: AgentConfig;
  let domainId: number;
  let bridge: NodeJS.Timeout | undefined;
  /** Whether the provider's records reach the name servers Pebble asks. */
  let propagating = true;
  const quiet = { info: () => undefined, error: () => undefined } as never;

  const providerTxt = () =>
    cloudflare
      .recordsOf(DOMAIN)
      .filter((record) => record.type === 'TXT' && record.name === CHALLENGE_NAME)
      .map((record) => record.content)
      .sort();
  const certificates = async () =>
    (await admin.get(`/external-domains/${domainId}/certificates`)).body.data as Array<{
      hostname: string;
      lastError: string | null;
      notAfter: string | null;
    }>;

  beforeAll(async () => {
    cloudflare = await new CloudflareFake({ tokens: [CF_TOKEN], zones: [DOMAIN] }).start();
    site = await startAcmeSite({
      env: { DNS_PROVIDER_API_URL: cloudflare.apiUrl },
      domain: { dnsProviderApiKey: CF_TOKEN },
      hosts: ['web1', 'web2'],
      dnsPropagationMs: 300,
    });
    ({ admin, pebble, config, domainId } = site);

    let pushed = '';
    bridge = setInterval(() => {
      const values = propagating ? providerTxt() : [];
      if (values.join() === pushed) return;
      pushed = values.join();
      void pebble.setTxt(CHALLENGE_NAME, values);
    }, 25);
  });
  afterAll(async () => {
    clearInterval(bridge);
    await site?.stop();
    await cloudflare?.stop();
  });

  it('obtains one wildcard for the domain, serves it for each host, removes the TXT records and reports it', async () => {
    const outcome = await runOnce(config, undefined, quiet);
    expect(outcome.applied.nginx).toMatchObject({ result: 'success' });
    const root = await pebble.root();
    for (const host of [`web1.${DOMAIN}`, `web2.${DOMAIN}`]) {
      const served = await eventually(
        () => servedCertificate(config.nginx.httpsPort, host, root),
        (c) => Boolean(c.subjectaltname),
      );
      expect(served.subjectaltname).toBe(`DNS:*.${DOMAIN}, DNS:${DOMAIN}`);
    }
    expect(providerTxt()).toEqual([]);

    // The run's second check-in reported it.
    expect(await certificates()).toEqual([
      expect.objectContaining({ hostname: `*.${DOMAIN}`, lastError: null, notAfter: expect.any(String) }),
    ]);
  });

  it('a DNS-01 challenge Pebble cannot see is refused: the last good wildcard stays, the error is reported, the records removed', async () => {
    const root = await pebble.root();
    const good = await servedCertificate(config.nginx.httpsPort, `web1.${DOMAIN}`, root);
    propagating = false;
    // Due for renewal by the test's clock; the attempt as a run makes it, then a run reports it.
    const snapshot = (await loadSnapshot(config.stateDirectory))!;
    const status = (await new AcmeStore(config.nginx.acmeDir).statuses())[`*.${DOMAIN}`]!;
    const due = Date.parse(status.nextAttempt!) + 1000;
    await keepCertificates(config, [nginxService(config.nginx)], snapshot, quiet, () => due);
    propagating = true;
    await runOnce(config, undefined, quiet);
    expect(providerTxt()).toEqual([]);
    const [wildcard] = await certificates();
    expect(wildcard!.lastError).toMatch(/refused the DNS-01 challenge/);
    expect((await servedCertificate(config.nginx.httpsPort, `web1.${DOMAIN}`, root)).serialNumber).toBe(
      good.serialNumber,
    );
  });
});
