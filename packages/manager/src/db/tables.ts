/**
 * The tables whose rows make up a site's configuration snapshot. On PostgreSQL each one has a
 * `config_changed` trigger: migration 006 made those of its time (its own list stays as it was), so a
 * table added here needs a new migration creating its trigger (test/upgrade.test.ts checks).
 */
export const CONFIG_TABLES = [
  'sites',
  'nodes',
  'containers',
  'services',
  'http_services',
  'transport_services',
  'dns_services',
  'external_domains',
  'volumes',
  'kept_volumes',
] as const;
