import { readFileSync } from 'node:fs';

export interface TlsMaterial {
  cert: string | Buffer;
  key: string | Buffer;
}

const fixtureDir = new URL('../../fixtures/tls/', import.meta.url);

/**
 * The self-signed test certificate shipped in `fixtures/tls` (CN=localhost, SAN localhost, 127.0.0.1,
 * ::1; valid 100 years; made with `openssl req -x509 -newkey rsa:2048 -nodes -days 36500`). Node's
 * crypto cannot issue X.509 certificates, and a fixture needs no dependency.
 */
export function testCertificate(): TlsMaterial {
  return {
    cert: readFileSync(new URL('cert.pem', fixtureDir)),
    key: readFileSync(new URL('key.pem', fixtureDir)),
  };
}

/** The fixture certificate in PEM, for clients that pin it as their CA. */
export function testCertificatePem(): string {
  return readFileSync(new URL('cert.pem', fixtureDir), 'utf8');
}
