export * from './address-policy.ts';
export * from './host-allowlist.ts';
export * from './guarded-connector.ts';
export * from './guarded-client.ts';
export * from './forward-proxy.ts';
export * from './body-limit.ts';
export * from './tls-pin.ts';
export * from './undici.ts';
