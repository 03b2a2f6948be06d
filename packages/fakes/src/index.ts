// Shared plumbing: every fake extends FakeServer (listeners, controls, request log).
export { FakeServer } from './shared/fake-server.ts';
export type { FakeServerOptions } from './shared/fake-server.ts';
export type { FailureSpec, RecordedRequest, ReplySpec, RequestMatch } from './shared/controls.ts';
export { testCertificate, testCertificatePem } from './shared/tls.ts';
export type { TlsMaterial } from './shared/tls.ts';

// One line per fake.
export * from './proxmox/index.ts';
export * from './docker/index.ts';
export * from './registry/index.ts';
export * from './dns/index.ts';
