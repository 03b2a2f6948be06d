import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sampleSnapshot } from './sandbox.ts';

const tsx = createRequire(import.meta.url).resolve('tsx');
const cli = new URL('../src/cli.ts', import.meta.url).pathname;

/** Runs `site-agent dry-run` as an operator would: no SITE_ID, no manager, files pointed into `dir`. */
async function dryRun(dir: string, snapshot: unknown) {
  const file = join(dir, 'snapshot.json');
  writeFileSync(file, JSON.stringify(snapshot));
  const env = {
    PATH: process.env.PATH,
    STATE_DIRECTORY: join(dir, 'state'),
    NGINX_HTTP_CONF: join(dir, 'nginx', 'site-agent.conf'),
    NGINX_STREAM_CONF: join(dir, 'nginx', 'site-agent-stream.conf'),
    DNSMASQ_CONF: join(dir, 'dnsmasq', 'site-agent.conf'),
    // A binary that would fail if the dry run tried to check or reload anything.
    NGINX_BIN: '/nonexistent/nginx',
    DNSMASQ_BIN: '/nonexistent/dnsmasq',
  };
  return promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import', tsx, cli, 'dry-run', file],
    { env },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('site-agent dry-run', () => {
  const snapshot = sampleSnapshot({ backend: 8080, auth: 4180, stream: 2222, echo: 22 });

  it('prints every file a run would write for a saved check-in answer, and writes none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-dry-run-'));
    const { code, stdout, stderr } = await dryRun(dir, { data: snapshot });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const headers = stdout.split('\n').filter((line) => line.startsWith(`# ${dir}`));
    expect(headers).toEqual([
      `# ${dir}/nginx/site-agent.conf`,
      `# ${dir}/nginx/site-agent-stream.conf`,
      `# ${dir}/dnsmasq/site-agent.conf`,
      `# ${dir}/state/hosts`,
      `# ${dir}/state/dhcp-hosts`,
    ]);
    expect(stdout).toContain('server_name app.example.test;');
    expect(stdout).toContain('02:00:0a:63:00:65,10.99.0.101,web1');
    for (const sub of ['nginx', 'dnsmasq', 'state']) expect(existsSync(join(dir, sub))).toBe(false);
  });

  it('says which value it would refuse and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-dry-run-'));
    const bad = structuredClone(snapshot);
    bad.proxy.httpServices[0]!.host = 'app.example.test; include /etc/shadow';
    const { code, stderr } = await dryRun(dir, bad);
    expect(code).toBe(1);
    expect(stderr).toMatch(/would refuse the snapshot: .*app\.example\.test; include/);
  });

  it('refuses a file that is not a snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-dry-run-'));
    const { code, stderr } = await dryRun(dir, { data: { site: 1 } });
    expect(code).toBe(1);
    expect(stderr).toContain('not a snapshot');
  });
});
