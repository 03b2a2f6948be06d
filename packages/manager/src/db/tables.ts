/**
 * The tables whose rows make up a site's configuration snapshot. On PostgreSQL each one has a
 * `config_changed` trigger (migration 006): a table added here needs a migration creating its trigger.
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
] as const;
