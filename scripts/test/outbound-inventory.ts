// Every place in the packages' own code that opens a connection, and why it may: the outbound policy
// (server-kit's guarded connector — internal addresses refused after resolution unless allowlisted)
// or the reason it is outside it. outbound-inventory.test.ts holds this list to the code.

/**
 * - `policy`: the outbound policy itself, or a call made through it (GuardedClient, the browsers'
 *   forward proxy);
 * - `administrator`: a destination only an administrator sets (environment or admin-only settings);
 * - `manager`: the site agent's calls to its own manager (MANAGER_URL, set by whoever installs it);
 * - `database`: the service's own database (configuration);
 * - `browser`: code that runs in a user's browser (the web clients, the page client), not in our processes.
 */
export type Route = 'policy' | 'administrator' | 'manager' | 'database' | 'browser';

export interface Site {
  /** The kinds of call outbound-sites.ts finds in the file. */
  kinds: string[];
  route: Route;
  why: string;
}

export const INVENTORY: Record<string, Site> = {
  // The outbound policy and what goes through it.
  'packages/server-kit/src/outbound/undici.ts': {
    kinds: ['undici'],
    route: 'policy',
    why: 'loads undici for the guarded connector, the guarded client and the TLS-policy connector',
  },
  'packages/server-kit/src/outbound/guarded-connector.ts': {
    kinds: ['undici'],
    route: 'policy',
    why: 'the policy: connects only to addresses it checked after resolution (allowlisted hosts excepted)',
  },
  'packages/server-kit/src/outbound/guarded-client.ts': {
    kinds: ['fetch(', 'undici'],
    route: 'policy',
    why: 'GuardedClient: fetch over the guarded connector, every redirect hop checked again',
  },
  'packages/server-kit/src/outbound/forward-proxy.ts': {
    kinds: ['undici'],
    route: 'policy',
    why: "the browsers' forward proxy: every HTTP request and CONNECT tunnel through the guarded connector",
  },
  'packages/manager/src/images/image-metadata.ts': {
    kinds: ['GuardedClient'],
    route: 'policy',
    why: 'image references a user chooses: registry calls through GuardedClient (registry allowlist)',
  },
  'packages/manager/src/images/registry-client.ts': {
    kinds: ['fetch('],
    route: 'policy',
    why: 'its own fetch() method calls the GuardedClient it is handed (token realms and redirects included)',
  },
  'packages/manager/src/alerts/alert-delivery.ts': {
    kinds: ['GuardedClient'],
    route: 'policy',
    why: 'alert webhooks through GuardedClient (ALERT_WEBHOOK_ALLOWLIST); refused at save time too',
  },
  'packages/translator/src/seo/origin-pages.ts': {
    kinds: ['GuardedClient', 'fetch('],
    route: 'policy',
    why: "a project's SEO origin through GuardedClient (TRANSLATOR_SEO_ORIGIN_ALLOWLIST); fetch( is its own method",
  },
  'packages/translator/src/browser/guarded-browser.ts': {
    kinds: ['ForwardProxy', 'playwright'],
    route: 'policy',
    why: 'Chromium with a forward proxy of its own as its only way out (pages, WebSockets, redirects)',
  },
  'packages/translator/src/screenshots/capturer.ts': {
    kinds: ['GuardedBrowser'],
    route: 'policy',
    why: 'screenshots in a GuardedBrowser (TRANSLATOR_SCREENSHOT_ALLOWLIST)',
  },
  'packages/server-kit/src/outbound/guarded-agent.ts': {
    kinds: ['http.Agent'],
    route: 'policy',
    why: 'GuardedHttpsAgent: the policy for libraries on node:https (each connection judged after resolution)',
  },
  'packages/agent/src/acme/account.ts': {
    kinds: ['GuardedHttpsAgent', 'acme-client'],
    route: 'policy',
    why: "acme-client's axios through GuardedHttpsAgent (ACME_ALLOWLIST), no redirects, no proxy from the environment",
  },
  'packages/agent/src/acme/order.ts': {
    kinds: ['acme-client'],
    route: 'policy',
    why: 'ACME orders and validation with the directory, on the axios account.ts put behind GuardedHttpsAgent',
  },
  'packages/agent/src/acme/renewal.ts': {
    kinds: ['acme-client'],
    route: 'policy',
    why: 'ACME renewals, on that same guarded axios',
  },
  'packages/translator/src/seo/prerenderer.ts': {
    kinds: ['GuardedBrowser'],
    route: 'policy',
    why: 'SEO prerendering in a GuardedBrowser (TRANSLATOR_SEO_ORIGIN_ALLOWLIST)',
  },

  // Destinations only an administrator sets.
  'packages/server-kit/src/outbound/tls-pin.ts': {
    kinds: ['undici'],
    route: 'administrator',
    why: "the connector for nodes an administrator adds: TLS verified, or the node's pinned certificate",
  },
  'packages/manager/src/providers/http.ts': {
    kinds: ['fetch(', 'undici'],
    route: 'administrator',
    why: 'Proxmox VE and engine node APIs (admin-only node URL or unix socket), TLS verified or pinned',
  },
  'packages/manager/src/providers/websocket.ts': {
    kinds: ['new WebSocket'],
    route: 'administrator',
    why: "a Proxmox VE node's vncwebsocket (terminals), after the node's TLS policy passed",
  },
  'packages/manager/src/dns/cloudflare-client.ts': {
    kinds: ['fetch('],
    route: 'administrator',
    why: 'the DNS provider API (MANAGER_DNS_PROVIDER_API_URL, Cloudflare by default), verified TLS',
  },
  'packages/manager/src/mail/mailer.ts': {
    kinds: ['nodemailer'],
    route: 'administrator',
    why: 'the SMTP server of the admin-only smtpUrl setting',
  },
  'packages/server-kit/src/oidc-client.ts': {
    kinds: ['openid-client'],
    route: 'administrator',
    why: 'the OpenID provider (OIDC_ISSUER / TRANSLATOR_OIDC_ISSUER); plain HTTP only to this host',
  },
  'packages/translator/src/ai/provider-call.ts': {
    kinds: ['undici'],
    route: 'administrator',
    why: 'the AI provider (TRANSLATOR_AI_BASE_URL, DeepL or its TRANSLATOR_DEEPL_BASE_URL); projects set keys, not addresses',
  },
  // The site agent and its manager.
  'packages/agent/src/checkin.ts': {
    kinds: ['fetch('],
    route: 'manager',
    why: 'check-in with the manager (MANAGER_URL) under the agent token',
  },
  'packages/agent/src/acme/dns-challenges.ts': {
    kinds: ['fetch('],
    route: 'manager',
    why: 'DNS-01 challenge records handed to the manager (MANAGER_URL), which sets them at the DNS provider',
  },
  'packages/agent/src/traffic/reporter.ts': {
    kinds: ['dgram', 'fetch('],
    route: 'manager',
    why: "last-access reports to the manager (MANAGER_URL); its UDP socket only receives nginx's syslog",
  },

  // The databases.
  'packages/server-kit/src/pg-module.ts': {
    kinds: ['pg'],
    route: 'database',
    why: 'PostgreSQL at MANAGER_DATABASE_URL / TRANSLATOR_DATABASE_URL',
  },
  'packages/server-kit/src/sqlite-driver.ts': {
    kinds: ['better-sqlite3'],
    route: 'database',
    why: 'SQLite files under DATA_DIR (no network)',
  },

  // Code that runs in users' browsers.
  'packages/web-kit/src/client.ts': {
    kinds: ['fetch('],
    route: 'browser',
    why: "the dashboards' API client: their own service's origin",
  },
  'packages/web-kit/src/event-stream.ts': {
    kinds: ['fetch('],
    route: 'browser',
    why: "job streams (SSE) from the dashboard's own service",
  },
  'packages/manager-web/src/api/container-logs.ts': {
    kinds: ['new EventSource'],
    route: 'browser',
    why: "followed container logs from the manager's own origin",
  },
  'packages/manager-web/src/pages/containers/JobLog.tsx': {
    kinds: ['new EventSource'],
    route: 'browser',
    why: "a job's output from the manager's own origin",
  },
  'packages/manager-web/src/pages/containers/terminal/terminal-socket.ts': {
    kinds: ['new WebSocket'],
    route: 'browser',
    why: "a container terminal on the manager's own origin",
  },
  'packages/translator-web/src/components/PhraseScreenshot.tsx': {
    kinds: ['fetch('],
    route: 'browser',
    why: "a phrase's screenshot from the translator's own origin",
  },
  'packages/page-client/src/api.ts': {
    kinds: ['fetch('],
    route: 'browser',
    why: "the page client on a customer's site: the translator's API (its data-server / script origin)",
  },
  'packages/server-kit/src/observability/api-docs-session.ts': {
    kinds: ['fetch('],
    route: 'browser',
    why: "the API docs page's request interceptor, in the user's browser: this server's own session and CSRF token paths, same origin only",
  },
  'packages/page-client/src/editor.ts': {
    kinds: ['fetch('],
    route: 'browser',
    why: "in-page editing: the translator's API with a member's edit token",
  },
};
