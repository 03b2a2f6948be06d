import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envReader } from '@app/server-kit';
import { freePort } from '@app/server-kit/testing';
import { readAgentConfig, type AgentConfig } from '../src/config.ts';
import type { Snapshot } from '../src/snapshot.ts';
import { pidFrom, run, sleep } from '../src/apply/process.ts';

export interface Sandbox {
  dir: string;
  config: AgentConfig;
  /** The environment `config` was read from: what the `site-agent` command is run with. */
  env: Record<string, string>;
  dnsPort: number;
  /** Stops nginx and dnsmasq and removes the folder. */
  stop(): Promise<void>;
}

/**
 * Real nginx and dnsmasq, each with a main configuration of its own in a temporary folder that
 * includes the agent's files, listening on loopback ports; the agent's config points at them.
 */
export async function startSandbox(env: Record<string, string> = {}): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-'));
  chmodSync(dir, 0o755); // nginx and dnsmasq drop privileges and must still read their files
  for (const sub of ['nginx', 'certs', 'state', 'tmp']) mkdirSync(join(dir, sub), { recursive: true });
  const [httpPort, httpsPort, dnsPort, syslogPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const nginxMain = join(dir, 'nginx', 'nginx.conf');
  const httpConf = join(dir, 'nginx', 'site-agent.conf');
  const streamConf = join(dir, 'nginx', 'site-agent-stream.conf');
  writeFileSync(httpConf, '');
  writeFileSync(streamConf, '');
  writeFileSync(
    nginxMain,
    [
      'load_module /usr/lib/nginx/modules/ngx_stream_module.so;',
      `pid ${join(dir, 'nginx', 'nginx.pid')};`,
      `error_log ${join(dir, 'nginx', 'error.log')};`,
      'events {}',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (name) => `  ${name}_temp_path ${join(dir, 'tmp', name)};`,
      ),
      `  include ${httpConf};`,
      '}',
      `include ${streamConf};`,
      '',
    ].join('\n'),
  );
  const dnsmasqMain = join(dir, 'dnsmasq.conf');
  const dnsmasqConf = join(dir, 'dnsmasq-site.conf');
  writeFileSync(dnsmasqConf, '');
  writeFileSync(
    dnsmasqMain,
    [
      `port=${dnsPort}`,
      'listen-address=127.0.0.1',
      'bind-interfaces',
      'no-resolv',
      'no-hosts',
      `conf-file=${dnsmasqConf}`,
      '',
    ].join('\n'),
  );

  const agentEnv = {
    SITE_ID: '1',
    MANAGER_URL: 'http://127.0.0.1:9',
    STATE_DIRECTORY: join(dir, 'state'),
    AGENT_HOSTNAME: 'gateway-1',
    NGINX_MAIN_CONF: nginxMain,
    NGINX_HTTP_CONF: httpConf,
    NGINX_STREAM_CONF: streamConf,
    NGINX_PID_FILE: join(dir, 'nginx', 'nginx.pid'),
    NGINX_UNIT: 'site-agent-test-nginx',
    HTTP_PORT: String(httpPort),
    HTTPS_PORT: String(httpsPort),
    CERT_DIR: join(dir, 'certs'),
    SYSLOG_ADDRESS: `127.0.0.1:${syslogPort}`,
    DNSMASQ_MAIN_CONF: dnsmasqMain,
    DNSMASQ_CONF: dnsmasqConf,
    DNSMASQ_HOSTS_FILE: join(dir, 'hosts'),
    DNSMASQ_DHCP_HOSTS_FILE: join(dir, 'dhcp-hosts'),
    DNSMASQ_PID_FILE: join(dir, 'dnsmasq.pid'),
    DNSMASQ_UNIT: 'site-agent-test-dnsmasq',
    ...env,
  };
  const config = readAgentConfig(envReader(agentEnv));
  writeFileSync(config.dnsmasq.hostsFile, '');
  writeFileSync(config.dnsmasq.dhcpHostsFile, '');
  await run('nginx', ['-c', nginxMain, '-p', join(dir, 'nginx')]);
  await run('dnsmasq', [`--conf-file=${dnsmasqMain}`, `--pid-file=${config.dnsmasq.pidFile}`]);
  for (
    let waited = 0;
    !(await pidFrom(config.nginx.pidFile)) || !(await pidFrom(config.dnsmasq.pidFile));
    waited += 50
  ) {
    if (waited > 5000) throw new Error('nginx or dnsmasq did not start');
    await sleep(50);
  }
  return {
    dir,
    config,
    env: agentEnv,
    dnsPort,
    async stop() {
      for (const file of [config.nginx.pidFile, config.dnsmasq.pidFile]) {
        const pid = await pidFrom(file);
        if (pid) process.kill(pid, 'SIGTERM');
      }
      await sleep(100);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An HTTP backend that answers with its name, the Host header and the path. */
export async function startBackend(name: string): Promise<{ port: number; server: Server }> {
  const server = createHttpServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ name, host: request.headers.host, path: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

/** Retries a request while nginx's workers pick up a reload. */
export async function eventually<T>(
  attempt: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await attempt();
      if (accept(value) || Date.now() > deadline) return value;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await sleep(100);
  }
}

/**
 * GET through nginx with a Host header (no DNS involved), on a connection of its own: a kept-alive
 * connection may belong to a worker that a reload is shutting down, which closes it unanswered.
 */
export function get(
  port: number,
  host: string,
  path = '/',
): Promise<{ status: number; body: string; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, body, location: response.headers.location }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

export function tcpEcho(port: number, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(message));
    socket.on('data', (data) => {
      resolve(data.toString());
      socket.end();
    });
    socket.on('error', reject);
  });
}

/**
 * A site as the manager would send it: three HTTP services to the `backend` port (plain, behind the
 * auth server on `auth`, and one whose domain has no auth server), a TCP stream from `stream` to the
 * `echo` port, and dnsmasq settings with a node, a container and an SRV record.
 */
export function sampleSnapshot(ports: {
  backend: number;
  auth: number;
  stream: number;
  echo: number;
}): Snapshot {
  return {
    site: {
      id: 1,
      name: 'Site',
      internalDomain: 'site.test',
      dhcpRange: '10.99.0.100-10.99.0.200',
      subnetMask: '255.255.255.0',
      gateway: '10.99.0.1',
      dnsForwarders: '127.0.0.1#9',
      externalIp: null,
      nodes: [{ name: 'pve1', ipv4Address: '10.99.0.2' }],
      containers: [{ id: 1, hostname: 'web1', ipv4Address: '10.99.0.101', macAddress: '02:00:0A:63:00:65' }],
      dnsRecords: [{ serviceId: 3, dnsName: '_app._tcp', hostname: 'web1', port: 8080 }],
    },
    proxy: {
      httpServices: [
        {
          serviceId: 1,
          host: 'app.example.test',
          domain: 'example.test',
          backendScheme: 'http',
          address: '127.0.0.1',
          port: ports.backend,
          authRequired: false,
          authServer: null,
        },
        {
          serviceId: 2,
          host: 'secure.example.test',
          domain: 'example.test',
          backendScheme: 'http',
          address: '127.0.0.1',
          port: ports.backend,
          authRequired: true,
          authServer: `http://127.0.0.1:${ports.auth}`,
        },
        {
          serviceId: 4,
          host: 'noauth.other.test',
          domain: 'other.test',
          backendScheme: 'http',
          address: '127.0.0.1',
          port: ports.backend,
          authRequired: true,
          authServer: null,
        },
      ],
      streamServices: [
        { serviceId: 5, protocol: 'tcp', externalPort: ports.stream, address: '127.0.0.1', port: ports.echo },
      ],
      externalDomains: [{ name: 'example.test' }, { name: 'other.test' }],
      volumes: [],
    },
  };
}
