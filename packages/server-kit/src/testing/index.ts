export * from './database.ts';
export * from './http-client.ts';
export * from './grafana.ts';
export * from './upgrade-fixture.ts';
export * from './service-process.ts';
export * from './bench-server.ts';
export * from './schema-drift.ts';
export * from './sse.ts';
