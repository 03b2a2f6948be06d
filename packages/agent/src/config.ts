import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError, envReader, type EnvReader } from '@app/server-kit';

export const AGENT_NAME = 'site-agent';

export interface AgentConfig {
  siteId: number;
  managerUrl: string;
  /** This site's agent token: what an agent on a host other than the manager's checks in with. */
  agentToken: string | undefined;
  /** An administrator's API key: the spec's older way for remote agents. */
  apiKey: string | undefined;
  stateDirectory: string;
  hostname: string;
  ipv4Address: string | null;
  requestTimeoutMs: number;
  acme: {
    /** Extra CA certificates (PEM) trusted for ACME directories, e.g. a private CA's. */
    caFile: string | undefined;
    /**
     * Hosts (`host` or `host:port`) of ACME directories on loopback or private addresses, such as a
     * private CA's; link-local and cloud-metadata addresses are refused even here.
     */
    allowlist: string[];
    /** The first retry after a failed issuance; each further failure doubles it, up to a day. */
    retryMs: number;
    /** How long a DNS-01 TXT record is given to reach the DNS provider's name servers. */
    dnsPropagationMs: number;
  };
  nginx: {
    bin: string;
    /** Main configuration, for `nginx -t -c`. */
    mainConf: string;
    /** Our `server {}` blocks; included inside `http {}`. */
    httpConf: string;
    /** Our `stream {}` block; included at the top level of the main configuration. */
    streamConf: string;
    pidFile: string;
    unit: string;
    httpPort: number;
    httpsPort: number;
    /** Per-domain certificates: `<certDir>/<domain>/fullchain.pem` and `privkey.pem`. */
    certDir: string;
    /**
     * The ACME folder: per-host certificates in `certs/<host>/`, preferred over certDir's, and the
     * HTTP-01 answers nginx serves from `challenges/.well-known/acme-challenge/`.
     */
    acmeDir: string;
    /** Access logs go as syslog datagrams to this local address, where the traffic reporter listens. */
    syslogAddress: string;
  };
  dnsmasq: {
    bin: string;
    /** Main configuration, for `dnsmasq --test --conf-file` and restarts without systemd. */
    mainConf: string;
    /** Our settings (range, options, SRV records); a change here needs a restart. */
    conf: string;
    /** Host and DHCP reservation files; a change here needs only SIGHUP. */
    hostsFile: string;
    dhcpHostsFile: string;
    pidFile: string;
    unit: string;
  };
}

/** What rendering and applying need: where nginx's and dnsmasq's files live and how to reach them. */
export type ServicesConfig = Pick<AgentConfig, 'stateDirectory' | 'nginx' | 'dnsmasq'>;

/** The services part of the configuration alone, for a dry run, which needs no site or manager. */
export function readServicesConfig(env: EnvReader = envReader()): ServicesConfig {
  const state = env.string('STATE_DIRECTORY', `/var/lib/${AGENT_NAME}`).split(':')[0]!;
  return {
    stateDirectory: state,
    nginx: {
      bin: env.string('NGINX_BIN', 'nginx'),
      mainConf: env.string('NGINX_MAIN_CONF', '/etc/nginx/nginx.conf'),
      httpConf: env.string('NGINX_HTTP_CONF', `/etc/nginx/conf.d/${AGENT_NAME}.conf`),
      streamConf: env.string('NGINX_STREAM_CONF', `/etc/nginx/${AGENT_NAME}-stream.conf`),
      pidFile: env.string('NGINX_PID_FILE', '/run/nginx.pid'),
      unit: env.string('NGINX_UNIT', 'nginx'),
      httpPort: env.int('HTTP_PORT', 80, { min: 1, max: 65535 }),
      httpsPort: env.int('HTTPS_PORT', 443, { min: 1, max: 65535 }),
      certDir: env.string('CERT_DIR', `/etc/ssl/${AGENT_NAME}`),
      acmeDir: join(state, 'acme'),
      syslogAddress: env.string('SYSLOG_ADDRESS', '127.0.0.1:5514'),
    },
    dnsmasq: {
      bin: env.string('DNSMASQ_BIN', 'dnsmasq'),
      mainConf: env.string('DNSMASQ_MAIN_CONF', '/etc/dnsmasq.conf'),
      conf: env.string('DNSMASQ_CONF', `/etc/dnsmasq.d/${AGENT_NAME}.conf`),
      hostsFile: env.string('DNSMASQ_HOSTS_FILE', join(state, 'hosts')),
      dhcpHostsFile: env.string('DNSMASQ_DHCP_HOSTS_FILE', join(state, 'dhcp-hosts')),
      pidFile: env.string('DNSMASQ_PID_FILE', '/run/dnsmasq/dnsmasq.pid'),
      unit: env.string('DNSMASQ_UNIT', 'dnsmasq'),
    },
  };
}

export function readAgentConfig(env: EnvReader = envReader()): AgentConfig {
  const siteId = env.int('SITE_ID', -1, { min: -1 });
  if (siteId < 1) throw new ConfigError('SITE_ID', 'required: the numeric id of this site in the manager');
  const managerUrl = env.url('MANAGER_URL');
  if (!managerUrl) throw new ConfigError('MANAGER_URL', 'required: the base URL of the manager');
  return {
    siteId,
    managerUrl: managerUrl.replace(/\/+$/, ''),
    agentToken: env.optionalString('AGENT_TOKEN'),
    apiKey: env.optionalString('API_KEY'),
    hostname: env.string('AGENT_HOSTNAME', hostname()),
    ipv4Address: env.optionalString('AGENT_IPV4') ?? null,
    requestTimeoutMs: env.int('AGENT_TIMEOUT_MS', 10_000, { min: 100 }),
    acme: {
      caFile: env.optionalString('ACME_CA_FILE'),
      allowlist: env.hosts('ACME_ALLOWLIST'),
      retryMs: env.int('ACME_RETRY_SECONDS', 600, { min: 1 }) * 1000,
      dnsPropagationMs: env.int('ACME_DNS_PROPAGATION_SECONDS', 30, { min: 0 }) * 1000,
    },
    ...readServicesConfig(env),
  };
}

/** The credential the agent sends to the manager: its site's agent token, else an admin API key, else none. */
export function managerAuthorization(config: Pick<AgentConfig, 'agentToken' | 'apiKey'>): {
  authorization?: string;
} {
  const secret = config.agentToken ?? config.apiKey;
  return secret ? { authorization: `Bearer ${secret}` } : {};
}
