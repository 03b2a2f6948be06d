import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAgentCli } from './agent-cli.ts';
import { sampleSnapshot } from './sandbox.ts';

/** Runs `site-agent dry-run` as an operator would: no SITE_ID, no manager, files pointed into `dir`. */
async function dryRun(dir: string, snapshot: unknown) {
  const file = join(dir, 'snapshot.json');
  writeFileSync(file, JSON.stringify(snapshot));
  return runAgentCli(['dry-run', file], {
    STATE_DIRECTORY: join(dir, 'state'),
    NGINX_HTTP_CONF: join(dir, 'nginx', 'site-agent.conf'),
    NGINX_STREAM_CONF: join(dir, 'nginx', 'site-agent-stream.conf'),
    DNSMASQ_CONF: join(dir, 'dnsmasq', 'site-agent.conf'),
    // A binary that would fail if the dry run tried to check or reload anything.
    NGINX_BIN: '/nonexistent/nginx',
    DNSMASQ_BIN: '/nonexistent/dnsmasq',
  });
}

describe('site-agent dry-run', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    dirs.push(mkdtempSync(join(tmpdir(), 'agent-dry-run-')));
    return dirs.at(-1)!;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  const snapshot = sampleSnapshot({ backend: 8080, auth: 4180, stream: 2222, echo: 22 });

  it('prints every file a run would write for a saved check-in answer, and writes none', async () => {
    const dir = tempDir();
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
    const dir = tempDir();
    const bad = structuredClone(snapshot);
    bad.proxy.httpServices[0]!.host = 'app.example.test; include /etc/shadow';
    const { code, stderr } = await dryRun(dir, bad);
    expect(code).toBe(1);
    expect(stderr).toMatch(/would refuse the snapshot: .*app\.example\.test; include/);
  });

  it('refuses a file that is not a snapshot', async () => {
    const dir = tempDir();
    const { code, stderr } = await dryRun(dir, { data: { site: 1 } });
    expect(code).toBe(1);
    expect(stderr).toContain('not a snapshot');
  });
});
