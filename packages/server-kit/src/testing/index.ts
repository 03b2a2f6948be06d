export * from './database.ts';
export * from './http-client.ts';
