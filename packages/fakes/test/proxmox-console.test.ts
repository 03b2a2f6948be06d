import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ProxmoxFake } from '../src/index.ts';
import { PveClient } from './pve-client.ts';

const TOKEN = 'root@pam!manager';
const OTHER = 'ops@pve!ci';
const SECRET = '7c1d2e3f-4a5b-4c6d-9e8f-0a1b2c3d4e5f';

interface Termproxy {
  user: string;
  ticket: string;
  port: number;
  upid: string;
}

/**
 * The container console as pve-container and pve-xtermjs define it: `POST …/termproxy` starts a proxy
 * for one client and a short-lived ticket bound to the caller, `/vms/<vmid>` and the port;
 * `GET …/vncwebsocket` (upgraded) joins the client to it; then termproxy's own protocol.
 */
describe('Proxmox VE fake: termproxy and vncwebsocket', () => {
  const fake = new ProxmoxFake({
    tokens: { [TOKEN]: SECRET, [OTHER]: SECRET },
    users: { 'root@pam': 'rootpw' },
    taskDurationMs: 0,
  });
  const api = () => PveClient.withToken(fake.apiUrl, TOKEN, SECRET);

  beforeAll(async () => {
    await fake.start();
    fake.addContainer({ vmid: 130, status: 'running', config: { hostname: 'app' } });
    fake.addContainer({ vmid: 131, status: 'stopped' });
  });
  afterAll(() => fake.stop());

  const termproxy = async (vmid = 130, client = api()) =>
    (await client.post<Termproxy>(`/nodes/pve/lxc/${vmid}/termproxy`)).body!.data;

  const socketUrl = (vmid: number, port: number, ticket: string) =>
    `${fake.apiUrl.replace(/^http/, 'ws')}/nodes/pve/lxc/${vmid}/vncwebsocket?port=${port}&vncticket=${encodeURIComponent(ticket)}`;

  /** A WebSocket as the PVE web console opens it (subprotocol `binary`), with these credentials. */
  function connect(
    vmid: number,
    proxy: Pick<Termproxy, 'port' | 'ticket'>,
    headers: Record<string, string> = tokenHeader(),
  ) {
    const ws = new WebSocket(socketUrl(vmid, proxy.port, proxy.ticket), ['binary'], { headers });
    let text = '';
    ws.on('message', (data: Buffer) => (text += data.toString('utf8')));
    const closed = new Promise<number>((resolve) => ws.on('close', resolve));
    return {
      ws,
      closed,
      get text() {
        return text;
      },
      async until(pattern: RegExp) {
        for (let i = 0; !pattern.test(text); i++) {
          if (i > 500) throw new Error(`no ${pattern} in ${JSON.stringify(text)}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      },
    };
  }
  const tokenHeader = (id = TOKEN) => ({ authorization: `PVEAPIToken=${id}=${SECRET}` });
  const refusal = (ws: WebSocket) =>
    new Promise<{ status?: number; reason?: string; error?: string }>((resolve) => {
      ws.on('unexpected-response', (_req, res) =>
        resolve({ status: res.statusCode!, reason: res.statusMessage! }),
      );
      ws.on('error', (error) => resolve({ error: error.message }));
      ws.on('open', () => resolve({}));
    });
  const input = (text: string) => `0:${Buffer.byteLength(text)}:${text}`;

  it('termproxy answers user (the token id), a PVEVNC ticket, a VNC port and its vncproxy task', async () => {
    const proxy = await termproxy();
    expect(proxy).toEqual({
      user: TOKEN,
      ticket: expect.stringMatching(/^PVEVNC:[0-9A-F]{8}::\S+$/),
      port: expect.any(Number),
      upid: expect.stringMatching(
        /^UPID:pve:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:vncproxy:130:root@pam!manager:$/,
      ),
    });
    expect(proxy.port).toBeGreaterThanOrEqual(5900);
    expect(fake.tasks.tasks.get(proxy.upid)?.status).toBe('running');
    const client = connect(130, proxy);
    await once(client.ws, 'open');
    client.ws.send(`${proxy.user}:${proxy.ticket}\n`);
    await client.until(/^OK/);
    client.ws.close();
    await client.closed;
    expect(await api().waitTask('pve', proxy.upid)).toEqual({ exitstatus: 'OK', log: ['TASK OK'] });
  });

  it('speaks the termproxy protocol: OK, a message in pieces, pings, resize (80x20 before), exit', async () => {
    const proxy = await termproxy();
    const client = connect(130, proxy);
    await once(client.ws, 'open');
    client.ws.send(`${proxy.user}:${proxy.ticket}\n`);
    await client.until(/^OKroot@app:~# $/);
    client.ws.send('0:14:echo $(');
    client.ws.send('(6*7))\r');
    client.ws.send('2');
    await client.until(/echo \$\(\(6\*7\)\)\r\n42\r\n/);
    client.ws.send(input('stty size\r'));
    await client.until(/\r\n20 80\r\n/);
    client.ws.send('1:120:40:');
    client.ws.send(input('stty size\r'));
    await client.until(/\r\n40 120\r\n/);
    client.ws.send(input('exit\r'));
    expect(await client.closed).toBe(1006);
  });

  it('a used ticket gets no second connection: its port takes one client', async () => {
    const proxy = await termproxy();
    const first = connect(130, proxy);
    await once(first.ws, 'open');
    const second = connect(130, proxy);
    expect(await refusal(second.ws)).toEqual({ error: 'socket hang up' });
    first.ws.close();
    await first.closed;
  });

  it('vncwebsocket refuses a ticket not made for this caller, path or port (401)', async () => {
    const proxy = await termproxy();
    const forged = `${proxy.ticket.slice(0, -4)}AAAA`;
    const cases = [
      connect(130, { ...proxy, ticket: forged }),
      connect(130, { ...proxy, port: proxy.port + 1 }),
      connect(132, proxy),
      connect(130, proxy, tokenHeader(OTHER)),
    ];
    for (const { ws } of cases) {
      expect(await refusal(ws)).toEqual({ status: 401, reason: 'permission denied - invalid PVEVNC ticket' });
    }
    const plain = await api().get(`/nodes/pve/lxc/130/vncwebsocket`, {
      port: proxy.port,
      vncticket: proxy.ticket,
    });
    expect(plain.body?.data).toEqual({ port: String(proxy.port) });
    expect(fake.takeViolations()).toEqual([]);
  });

  it('termproxy closes the connection without OK on a wrong ticket line', async () => {
    const proxy = await termproxy();
    const client = connect(130, proxy);
    await once(client.ws, 'open');
    client.ws.send(`${OTHER}:${proxy.ticket}\n`);
    expect(await client.closed).toBe(1006);
    expect(client.text).toBe('');
    expect(await api().waitTask('pve', proxy.upid)).toEqual({
      exitstatus: 'authentication request failed',
      log: ['TASK ERROR: authentication request failed'],
    });
  });

  it('takes the ticket cookie of a signed-in user as the web console sends it', async () => {
    const client = new PveClient(fake.apiUrl);
    await client.login('root@pam', 'rootpw');
    const proxy = await termproxy(130, client);
    expect(proxy.user).toBe('root@pam');
    const socket = connect(130, proxy, { cookie: client.headers.cookie! });
    await once(socket.ws, 'open');
    socket.ws.send(`root@pam:${proxy.ticket}\n`);
    await socket.until(/^OKroot@app/);
    socket.ws.close();
    await socket.closed;
  });

  it('the console of a stopped container ends at once, as lxc-console does', async () => {
    const proxy = await termproxy(131);
    const client = connect(131, proxy);
    await once(client.ws, 'open');
    client.ws.send(`${proxy.user}:${proxy.ticket}\n`);
    expect(await client.closed).toBe(1006);
    expect(client.text).toMatch(/^OKlxc-console: 131: .* 131 is not running\r\n$/);
  });

  it('both need VM.Console on /vms/<vmid> (403)', async () => {
    const proxy = await termproxy();
    fake.auth.withhold(TOKEN, 'VM.Console');
    try {
      const refused = await api().post(`/nodes/pve/lxc/130/termproxy`);
      expect([refused.status, refused.statusText]).toEqual([
        403,
        'Permission check failed (/vms/130, VM.Console)',
      ]);
      expect(await refusal(connect(130, proxy).ws)).toEqual({
        status: 403,
        reason: 'Permission check failed (/vms/130, VM.Console)',
      });
    } finally {
      fake.auth.grant(TOKEN, 'VM.Console');
    }
  });

  it('holds both to the schema: a port outside 5900-5999 and unknown parameters are refused', async () => {
    const proxy = await termproxy();
    const outside = await api().get(`/nodes/pve/lxc/130/vncwebsocket`, {
      port: 6000,
      vncticket: proxy.ticket,
    });
    expect(outside.body?.errors).toEqual({ port: 'value must have a maximum value of 5999' });
    const extra = await api().post(`/nodes/pve/lxc/130/termproxy`, { cmd: 'login' });
    expect(extra.body?.errors).toEqual({
      cmd: 'property is not defined in schema and the schema does not allow additional properties',
    });
    expect(fake.takeViolations().map((v) => [v.method, v.path.split('?')[0]])).toEqual([
      ['GET', '/nodes/pve/lxc/130/vncwebsocket'],
      ['POST', '/nodes/pve/lxc/130/termproxy'],
    ]);
  });
});
