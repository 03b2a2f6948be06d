export * from './types.ts';
export * from './errors.ts';
export * from './handlers.ts';
export * from './job-store.ts';
export * from './job-events.ts';
export * from './job-worker.ts';
export * from './job-stream.ts';
