import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createRequire } from 'node:module';
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { keepCertificates } from '../src/acme/certificates.ts';
import { AcmeStore } from '../src/acme/store.ts';
import { applyService } from '../src/apply/apply.ts';
import { sleep } from '../src/apply/process.ts';
import { nginxService } from '../src/apply/services.ts';
import type { AgentConfig } from '../src/config.ts';
import type { Snapshot } from '../src/snapshot.ts';
import { servedCertificate, startPebble, type Pebble } from './pebble.ts';
import { eventually, sampleSnapshot, startSandbox, type Sandbox } from './sandbox.ts';

/** A serial number as hex, whatever the case and leading zeros of the one reading it. */
const serialOf = (hex: string) => hex.toUpperCase().replace(/^0+/, '');

const VALIDITY_S = 300;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A GET to nginx on 127.0.0.1 as a browser asking for `host` would send it (over TLS: SNI too). */
function get(url: { tls?: { ca: string }; port: number; host: string; path: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time (no keep-alive), as a new visitor would open.
    const options = {
      host: '127.0.0.1',
      port: url.port,
      path: url.path,
      headers: { Host: url.host },
      agent: false,
    };
    const answer = (response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    };
    const req = url.tls
      ? httpsRequest({ ...options, servername: url.host, ca: url.tls.ca }, answer)
      : httpRequest(options, answer);
    req.on('error', reject);
    req.end();
  });
}
const RETRY_MS = 60_000;

describe('certificates by ACME HTTP-01 from a real Pebble, served by real nginx', () => {
  let sandbox: Sandbox;
  let pebble: Pebble;
  let root: string;
  let config: AgentConfig;
  let snapshot: Snapshot;
  let store: AcmeStore;
  const errors: string[] = [];
  const log = { info: () => undefined, error: (line: string) => void errors.push(line) };
  const nginx = () => nginxService(config.nginx);
  const served = (host: string) => servedCertificate(config.nginx.httpsPort, host, root);
  const status = async (host: string) => (await store.statuses())[host]!;
  // Until nginx's old workers have quit, a new connection may still meet the certificate before a reload.
  // Told apart by serial number: two certificates issued within one second share their notAfter.
  const servedAsRecorded = async (host: string) => {
    const serial = serialOf(new X509Certificate((await store.certificate(host))!).serialNumber);
    return eventually(
      () => served(host),
      (c) => serialOf(c.serialNumber) === serial,
    );
  };
  const dueAt = async (host: string) => Date.parse((await status(host)).nextAttempt!);

  beforeAll(async () => {
    sandbox = await startSandbox();
    pebble = await startPebble(sandbox.config.nginx.httpPort, VALIDITY_S);
    root = await pebble.root();
    config = {
      ...sandbox.config,
      acme: {
        caFile: pebble.tlsCaFile,
        allowlist: [new URL(pebble.directoryUrl).host],
        retryMs: RETRY_MS,
        dnsPropagationMs: 0,
      },
    };
    store = new AcmeStore(config.nginx.acmeDir);
    snapshot = sampleSnapshot({ backend: 9, auth: 9, stream: 9, echo: 9 });
    snapshot.proxy.streamServices = [];
    snapshot.proxy.externalDomains = [
      { name: 'example.test', acmeEmail: 'ops@example.test', acmeDirectoryUrl: pebble.directoryUrl },
      { name: 'other.test' },
    ];
  });
  beforeEach(() => {
    errors.length = 0;
  });
  afterAll(async () => {
    await sandbox?.stop();
    await pebble?.stop();
  });

  it('obtains a certificate per HTTP host of a domain with an ACME contact, and nginx serves it', async () => {
    expect(await applyService(nginx(), snapshot)).toMatchObject({ result: 'success' });
    const outcome = await keepCertificates(config, [nginx()], snapshot, log);
    expect(errors).toEqual([]);
    expect(outcome).toEqual({ result: 'success', changed: [config.nginx.httpConf] });

    // Pebble's HTTP-01 request reached nginx, also for the service behind sign-in.
    for (const host of ['app.example.test', 'secure.example.test']) {
      const certificate = await eventually(
        () => served(host),
        (c) => Boolean(c.subjectaltname),
      );
      expect(certificate.subjectaltname).toBe(`DNS:${host}`);
      const lifetime = Date.parse(certificate.valid_to) - Date.parse(certificate.valid_from);
      expect(lifetime / 1000).toBeGreaterThan(VALIDITY_S - 5);
      expect(lifetime / 1000).toBeLessThanOrEqual(VALIDITY_S + 1);
      const state = await status(host);
      expect(state).toMatchObject({ hostname: host, lastError: null, failures: 0 });
      expect(Date.parse(state.notAfter!)).toBe(Date.parse(certificate.valid_to));
      // Renewal at two thirds of the lifetime.
      expect(
        Math.abs(Date.parse(state.nextAttempt!) - Date.parse(certificate.valid_from) - lifetime * (2 / 3)),
      ).toBeLessThan(1000);
    }
    // other.test has no ACME contact: no certificate, no HTTPS.
    expect(await store.statuses()).not.toHaveProperty(['noauth.other.test']);
    await expect(served('noauth.other.test')).rejects.toThrow();

    // Nothing is due: no order, nginx left alone.
    expect(await keepCertificates(config, [nginx()], snapshot, log)).toBeUndefined();
  });

  it('redirect and HSTS toggles: port 80 answers 301 to HTTPS but still the ACME challenge; HSTS only over TLS', async () => {
    const toggled = snapshot.proxy.httpServices.find((s) => s.host === 'app.example.test')!;
    Object.assign(toggled, { redirectHttps: true, hsts: true });
    expect(await applyService(nginx(), snapshot)).toMatchObject({ result: 'success' });
    const { httpPort, httpsPort } = config.nginx;

    // nginx's old workers may answer a moment after the reload.
    const plain = await eventually(
      () => get({ port: httpPort, host: 'app.example.test', path: '/page?x=1' }),
      (answer) => answer.status === 301,
    );
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`https://app.example.test:${httpsPort}/page?x=1`);
    expect(plain.headers['strict-transport-security']).toBeUndefined();

    // An HTTP-01 answer is still served on port 80, not redirected.
    const challenges = join(AcmeStore.webroot(config.nginx.acmeDir), '.well-known', 'acme-challenge');
    mkdirSync(challenges, { recursive: true });
    writeFileSync(join(challenges, 'token-1'), 'token-1.thumbprint');
    const challenge = await get({
      port: httpPort,
      host: 'app.example.test',
      path: '/.well-known/acme-challenge/token-1',
    });
    rmSync(join(challenges, 'token-1'));
    expect(challenge).toMatchObject({ status: 200, body: 'token-1.thumbprint' });

    // Over TLS (verified against Pebble's root) the header is there; the backend (port 9) is down: 502.
    const secure = await get({ tls: { ca: root }, port: httpsPort, host: 'app.example.test', path: '/' });
    expect(secure.status).toBe(502);
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');

    // The service without the toggles: plain HTTP is proxied, TLS sends no HSTS.
    const other = { port: httpPort, host: 'secure.example.test', path: '/oauth2/start' };
    expect((await get(other)).status).not.toBe(301);
    const otherTls = await get({ ...other, port: httpsPort, tls: { ca: root } });
    expect(otherTls.headers['strict-transport-security']).toBeUndefined();
  });

  it('renews at two thirds of the lifetime, and nginx serves the new certificate', async () => {
    const before = await served('app.example.test');
    const now = (await dueAt('app.example.test')) + 1000;
    const outcome = await keepCertificates(config, [nginx()], snapshot, log, () => now);
    expect(errors).toEqual([]);
    expect(outcome).toMatchObject({ result: 'success' });
    const after = await eventually(
      () => served('app.example.test'),
      (c) => c.serialNumber !== before.serialNumber,
    );
    expect(after.serialNumber).not.toBe(before.serialNumber);
    // Not earlier; equal when both were issued within one second (a fast machine).
    expect(Date.parse(after.valid_to)).toBeGreaterThanOrEqual(Date.parse(before.valid_to));
  });

  // Four passes against Pebble, two of them orders: more than the default 5 s on a loaded machine.
  it(
    'a refused challenge keeps the last good certificate, records the error and backs off',
    { timeout: 30_000 },
    async () => {
      const good = await servedAsRecorded('app.example.test');
      await pebble.breakDns('app.example.test', true);
      onTestFinished(() => pebble.breakDns('app.example.test', false));
      let now = Math.max(await dueAt('app.example.test'), await dueAt('secure.example.test')) + 1000;
      await keepCertificates(config, [nginx()], snapshot, log, () => now);
      expect(errors).toEqual([
        expect.stringMatching(/^acme: app\.example\.test: no certificate \(attempt 1\): /),
      ]);
      expect(await status('app.example.test')).toMatchObject({
        notAfter: new Date(good.valid_to).toISOString(),
        failures: 1,
        lastError: expect.stringMatching(
          /^the ACME server refused the HTTP-01 challenge: .*app\.example\.test.*resolve/,
        ),
        nextAttempt: new Date(now + RETRY_MS).toISOString(),
      });
      // The other host renewed; the refused one still serves its last good certificate.
      expect((await status('secure.example.test')).lastError).toBeNull();
      expect((await served('app.example.test')).serialNumber).toBe(good.serialNumber);

      // Before the back-off has passed: no attempt. After: another, and the delay doubles.
      now += RETRY_MS / 2;
      await keepCertificates(config, [nginx()], snapshot, log, () => now);
      expect(errors).toHaveLength(1);
      now += RETRY_MS;
      await keepCertificates(config, [nginx()], snapshot, log, () => now);
      expect(errors[1]).toMatch(/\(attempt 2\)/);
      expect(await dueAt('app.example.test')).toBe(now + 2 * RETRY_MS);

      // Once the name resolves again, the next attempt succeeds and clears the error.
      await pebble.breakDns('app.example.test', false);
      now += 2 * RETRY_MS;
      expect(await keepCertificates(config, [nginx()], snapshot, log, () => now)).toMatchObject({
        result: 'success',
      });
      expect(await status('app.example.test')).toMatchObject({ lastError: null, failures: 0 });
      const renewed = await eventually(
        () => served('app.example.test'),
        (c) => c.serialNumber !== good.serialNumber,
      );
      expect(renewed.serialNumber).not.toBe(good.serialNumber);
    },
  );

  it('an agent stopped half-way through an order finishes it on its next run', async () => {
    const host = 'late.example.test';
    snapshot.proxy.httpServices.push({ ...snapshot.proxy.httpServices[0]!, serviceId: 6, host });
    expect(await applyService(nginx(), snapshot)).toMatchObject({ result: 'success' });
    const snapshotFile = join(sandbox.dir, 'snapshot.json');
    writeFileSync(snapshotFile, JSON.stringify(snapshot));

    // The pass in a process of its own, killed as soon as its order exists.
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const script = new URL('./acme-run.ts', import.meta.url).pathname;
    const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, script, snapshotFile], {
      env: {
        PATH: process.env.PATH,
        ...sandbox.env,
        ACME_CA_FILE: pebble.tlsCaFile,
        ACME_ALLOWLIST: new URL(pebble.directoryUrl).host,
      },
      stdio: 'ignore',
    });
    const orderFile = join(config.nginx.acmeDir, 'orders', `${host}.json`);
    for (let waited = 0; !existsSync(orderFile); waited += 10) {
      if (waited > 20_000 || child.exitCode !== null) throw new Error('the order never appeared');
      await sleep(10);
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(child.signalCode).toBe('SIGKILL');
    expect(existsSync(orderFile)).toBe(true);
    expect(existsSync(AcmeStore.certificatePaths(config.nginx.acmeDir, host).cert)).toBe(false);

    const outcome = await keepCertificates(config, [nginx()], snapshot, log);
    expect(errors).toEqual([]);
    expect(outcome).toMatchObject({ result: 'success' });
    const certificate = await eventually(
      () => served(host),
      (c) => Boolean(c.subjectaltname),
    );
    expect(certificate.subjectaltname).toBe(`DNS:${host}`);
    expect(existsSync(orderFile)).toBe(false);
    // No challenge answer is left behind.
    expect(
      readdirSync(join(AcmeStore.webroot(config.nginx.acmeDir), '.well-known', 'acme-challenge')),
    ).toEqual([]);
  });

  it('refuses a directory that is not https, or at an address the outbound policy refuses, at once, saying why', async () => {
    const pebbleHost = new URL(pebble.directoryUrl).host;
    const cases: Array<[string, string[], RegExp]> = [
      ['http://169.254.169.254/latest/meta-data/', ['169.254.169.254'], /is not an https URL/],
      ['https://169.254.169.254/directory', ['169.254.169.254'], /169\.254\.169\.254 is link-local/],
      [pebble.directoryUrl, [], /127\.0\.0\.1 is loopback/],
      [
        pebble.directoryUrl.replace('127.0.0.1', 'localhost'),
        [pebbleHost],
        /localhost resolves to .*loopback/,
      ],
    ];
    const started = Date.now();
    for (const [index, [acmeDirectoryUrl, allowlist, reason]] of cases.entries()) {
      const host = `h${index}.refused.test`;
      const acmeDir = join(sandbox.dir, `acme-refused-${index}`);
      const refusing = {
        ...config,
        acme: { ...config.acme, allowlist },
        nginx: { ...config.nginx, acmeDir },
      };
      const probe: Snapshot = {
        ...snapshot,
        proxy: {
          ...snapshot.proxy,
          httpServices: [{ ...snapshot.proxy.httpServices[0]!, serviceId: 7, host, domain: 'refused.test' }],
          externalDomains: [{ name: 'refused.test', acmeEmail: 'ops@example.test', acmeDirectoryUrl }],
        },
      };
      expect(await keepCertificates(refusing, [], probe, log)).toBeUndefined();
      const refused = (await new AcmeStore(acmeDir).statuses())[host]!;
      expect(refused, acmeDirectoryUrl).toMatchObject({ notAfter: null, failures: 1 });
      expect(refused.lastError, acmeDirectoryUrl).toMatch(reason);
    }
    expect(errors).toHaveLength(cases.length);
    // Refused before any connection: the ACME client's retries (seconds apart) never started.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
