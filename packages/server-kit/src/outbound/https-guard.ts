// The outbound policy for a plain `https` client, without the rest of server-kit: the site agent's
// bundle takes this entry alone (packaging/debian/bundle-agent.mjs).
export { GuardedHttpsAgent } from './guarded-agent.ts';
export { HostAllowlist } from './host-allowlist.ts';
