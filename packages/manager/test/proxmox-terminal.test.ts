import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxFake } from '@app/fakes';
import { ProxmoxProvider } from '../src/providers/proxmox/proxmox-provider.ts';
import type { TerminalSession } from '../src/providers/terminal.ts';
import { NodeUnreachableError, ProviderError, type NodeConnection } from '../src/providers/types.ts';

/** The node's API token and, for the ticket login, root's password. */
const TOKEN = { id: 'root@pam!manager', secret: '0d6e2f1a-3b4c-4d5e-8f90-a1b2c3d4e5f6' };
const PASSWORD = 'console-password-7';

/**
 * The Proxmox provider's terminal against the PVE fake over TLS (real HTTP and WebSocket on loopback):
 * termproxy, then vncwebsocket with the ticket, as the PVE web console does it.
 */
describe('Proxmox VE terminal (termproxy + vncwebsocket)', () => {
  let pve: ProxmoxFake;
  const provider = new ProxmoxProvider({ timeoutMs: 5_000, taskPollMs: 20 });

  beforeAll(async () => {
    pve = await new ProxmoxFake({
      tls: true,
      tokens: { [TOKEN.id]: TOKEN.secret },
      users: { 'root@pam': PASSWORD },
      taskDurationMs: 0,
    }).start();
    pve.addContainer({ vmid: 120, status: 'running', config: { hostname: 'web' } });
    pve.addContainer({ vmid: 121, status: 'stopped' });
  });
  afterAll(() => pve.stop());

  const node = (overrides: Partial<NodeConnection> = {}): NodeConnection => ({
    id: 1,
    name: 'pve',
    nodeType: 'hypervisor',
    siteId: 1,
    ipv4Address: null,
    apiUrl: pve.url,
    tokenId: TOKEN.id,
    secret: TOKEN.secret,
    tlsVerify: null,
    tlsFingerprint: pve.fingerprint,
    imageStorage: 'local',
    volumeStorage: 'local-lvm',
    networkBridge: 'vmbr0',
    nvidiaAvailable: false,
    volumeIdShift: null,
    ...overrides,
  });

  /** Collects the session's output; `until` waits for text to appear in it. */
  function reader(session: TerminalSession) {
    let text = '';
    session.onData((chunk) => (text += chunk.toString('utf8')));
    return {
      get text() {
        return text;
      },
      async until(pattern: RegExp) {
        const deadline = Date.now() + 5_000;
        while (!pattern.test(text)) {
          if (Date.now() > deadline) throw new Error(`no ${pattern} in ${JSON.stringify(text)}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      },
    };
  }

  const open = (vmid: string, overrides: Partial<NodeConnection> = {}, size = { cols: 80, rows: 24 }) =>
    provider.terminal(node(overrides), vmid, size, new AbortController().signal);

  const type = (session: TerminalSession, line: string) => session.write(Buffer.from(`${line}\r`));

  it('runs a command, follows a resize and closes when the shell exits (API token)', async () => {
    const session = await open('120', {}, { cols: 100, rows: 30 });
    const out = reader(session);
    await out.until(/root@web:~# $/);
    type(session, 'echo $((6*7))');
    await out.until(/\r\n42\r\n/);
    type(session, 'stty size');
    await out.until(/\r\n30 100\r\n/);
    await session.resize({ cols: 132, rows: 43 });
    type(session, 'stty size');
    await out.until(/\r\n43 132\r\n/);
    type(session, 'exit');
    expect(await session.closed).toEqual({ reason: 'the shell exited or the node ended the console' });
    const console = [...pve.tasks.tasks.values()].find((task) => task.type === 'vncproxy');
    expect(console).toMatchObject({ id: '120', user: 'root@pam', tokenid: 'manager' });
    await pve.tasks.settle();
    expect(console?.exitstatus).toBe('OK');
    expect(pve.termproxies.count).toBe(0);
  });

  it('logs in with user and password where the node has no token, and close() ends the session', async () => {
    const session = await open('120', { tokenId: 'root@pam', secret: PASSWORD });
    const out = reader(session);
    type(session, 'echo "hello $((2+3))"');
    await out.until(/\r\nhello 5\r\n/);
    session.close();
    session.close();
    expect(await session.closed).toEqual({ reason: 'the session was closed' });
    await pve.tasks.settle();
    expect(pve.termproxies.count).toBe(0);
  });

  it('keystrokes pasted in bulk arrive whole, in frames the node takes', async () => {
    const session = await open('120');
    const out = reader(session);
    const word = 'x'.repeat(150_000);
    type(session, `echo ${word}`);
    await out.until(new RegExp(`\\r\\n${word}\\r\\n`));
    session.close();
    await session.closed;
  });

  it('settles closed when the node drops the connection', async () => {
    const session = await open('120');
    await pve.setUnreachable(true);
    try {
      expect((await session.closed).reason).toMatch(
        /^the (shell exited or the node ended|connection to the node failed)/,
      );
    } finally {
      await pve.setUnreachable(false);
    }
  });

  it('refuses a stopped container before starting a console', async () => {
    const opened = open('121');
    await expect(opened).rejects.toThrow(new ProviderError('CT 121 is not running'));
    expect(pve.termproxies.count).toBe(0);
  });

  it('without VM.Console the node refuses termproxy (403)', async () => {
    pve.auth.withhold(TOKEN.id, 'VM.Console');
    try {
      const opened = open('120');
      await expect(opened).rejects.toMatchObject({
        status: 403,
        message: 'Permission check failed (/vms/120, VM.Console)',
      });
    } finally {
      pve.auth.grant(TOKEN.id, 'VM.Console');
    }
  });

  it.each([
    ['is not the pinned one', { tlsFingerprint: `${'AB:'.repeat(31)}AB` }],
    ['is self-signed and the node verifies by default', { tlsFingerprint: null }],
  ])('sends nothing to a node whose certificate %s', async (_case, tls) => {
    pve.clearRequests();
    await expect(open('120', tls)).rejects.toBeInstanceOf(NodeUnreachableError);
    expect(pve.requests).toEqual([]);
  });

  it('stops opening when the caller gives up', async () => {
    pve.setLatency(2_000, { path: /\/vncwebsocket$/ });
    try {
      const controller = new AbortController();
      const opened = provider.terminal(node(), '120', { cols: 80, rows: 24 }, controller.signal);
      await new Promise((resolve) => setTimeout(resolve, 100));
      controller.abort(new Error('the browser left'));
      await expect(opened).rejects.toThrow('the browser left');
    } finally {
      pve.resetControls();
    }
  });
});
