import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagerClient } from '@app/manager/testing';
import { runOnce } from '../src/run.ts';
import type { AgentConfig } from '../src/config.ts';
import { servedCertificate, type Pebble } from './pebble.ts';
import { eventually } from './sandbox.ts';
import { startAcmeSite, type AcmeSite } from './acme-site.ts';

const HOST = 'web1.apps.example.test';

/**
 * The whole path: an external domain with an ACME contact in the manager → the agent's run obtains
 * the certificate from Pebble, nginx serves it, and the run's second check-in reports it to the
 * manager, which lists it under the domain.
 */
describe('certificates through the manager, the agent run, Pebble and nginx', () => {
  let site: AcmeSite;
  let admin: ManagerClient;
  let pebble: Pebble;
  let config: AgentConfig;
  let domainId: number;
  const quiet = { info: () => undefined, error: () => undefined } as never;

  beforeAll(async () => {
    site = await startAcmeSite({});
    ({ admin, pebble, config, domainId } = site);
  });
  afterAll(() => site?.stop());

  it('obtains the certificate in the run that applies the domain, serves it and reports it', async () => {
    const outcome = await runOnce(config, undefined, quiet);
    expect(outcome.applied.nginx).toMatchObject({ result: 'success' });
    const root = await pebble.root();
    const served = await eventually(
      () => servedCertificate(config.nginx.httpsPort, HOST, root),
      (c) => Boolean(c.subjectaltname),
    );
    expect(served.subjectaltname).toBe(`DNS:${HOST}`);

    const listed = (await admin.get(`/external-domains/${domainId}/certificates`)).body.data;
    expect(listed).toEqual([
      expect.objectContaining({
        hostname: HOST,
        lastError: null,
        notAfter: new Date(served.valid_to).toISOString(),
      }),
    ]);

    // Nothing new from the manager and nothing due: the run leaves nginx alone.
    expect(await runOnce(config, undefined, quiet)).toEqual({ changed: false, applied: {} });
  });
});
