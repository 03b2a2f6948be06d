export * from './database.ts';
export * from './http-client.ts';
export * from './grafana.ts';
