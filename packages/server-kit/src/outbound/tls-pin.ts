import { TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { loadUndici } from './undici.ts';

/** The peer's certificate is not the pinned one: nothing was sent on the connection. */
export class CertificatePinError extends Error {
  readonly code = 'E_CERTIFICATE_PIN';
  override name = 'CertificatePinError';
}

/**
 * A SHA-256 certificate fingerprint as Proxmox VE shows it (`AA:BB:…`, 32 bytes), from that form or
 * 64 hex digits, in any case; undefined when the text is neither.
 */
export function normalizeFingerprint(text: string): string | undefined {
  const value = text.trim().toUpperCase();
  const hex = /^[0-9A-F]{64}$/.test(value)
    ? value
    : /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/.test(value)
      ? value.replace(/:/g, '')
      : undefined;
  return hex?.match(/../g)!.join(':');
}

export interface TlsPolicy {
  /** Check the certificate chain and name against the system's CAs. */
  verify: boolean;
  /** When set, the certificate must have this SHA-256 fingerprint (normalised), whatever its CA. */
  fingerprint?: string | null | undefined;
}

/**
 * An undici connector applying a node's TLS policy. With a fingerprint the connection is accepted iff
 * the peer certificate's SHA-256 fingerprint matches — checked after the handshake, before undici
 * writes any request, so a wrong certificate never receives credentials — and TLS sessions are not
 * resumed (each connection shows its certificate).
 */
export async function tlsPolicyConnector(
  policy: TlsPolicy,
  options: { timeoutMs: number; socketPath?: string | undefined },
): Promise<buildConnector.connector> {
  const { buildConnector } = await loadUndici();
  const pin = policy.fingerprint ?? undefined;
  const connect = buildConnector({
    timeout: options.timeoutMs,
    rejectUnauthorized: pin ? false : policy.verify,
    ...(pin ? { maxCachedSessions: 0 } : {}),
    ...(options.socketPath ? { socketPath: options.socketPath } : {}),
  });
  if (!pin) return connect;
  return (target, callback) =>
    connect(target, (...result) => {
      const [error, socket] = result;
      if (error) return callback(error, null);
      const seen = socket instanceof TLSSocket ? socket.getPeerCertificate().fingerprint256 : undefined;
      if (seen === pin) return callback(null, socket);
      socket.destroy();
      return callback(
        new CertificatePinError(
          seen
            ? `the certificate of ${target.hostname} has the fingerprint ${seen}, not the pinned ${pin}`
            : `${target.hostname} answered without TLS, but its certificate fingerprint is pinned`,
        ),
        null,
      );
    });
}
