import { isDomainName, isIPv4 } from '@app/agent/config-values';
import { normalizeFingerprint, type FieldErrors } from '@app/server-kit';
import { MAX_VOLUME_ID_SHIFT } from '../volumes/volume-owner.ts';
import { fail } from '../errors/catalogue.ts';

export const NODE_TYPES = ['hypervisor', 'dummy', 'engine'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** The original system's vocabulary, accepted on input and answered in the spec's. */
const ALIASES: Record<string, NodeType> = { proxmox: 'hypervisor', docker: 'engine', podman: 'engine' };

export function parseNodeType(value: string): NodeType {
  const type = value.trim().toLowerCase();
  const resolved = ALIASES[type] ?? type;
  if (!(NODE_TYPES as readonly string[]).includes(resolved)) {
    throw fail('invalid_node_type', `Unknown node type "${value}"; use one of ${NODE_TYPES.join(', ')}.`, {
      nodeType: 'is unknown',
    });
  }
  return resolved as NodeType;
}

export type EngineEndpoint =
  { kind: 'unix'; socketPath: string } | { kind: 'http'; origin: string; tls: boolean };

/**
 * A container-engine host: `unix:///path`, `tcp://host:port` (plain HTTP, as Docker means it),
 * `http://host:port` or `https://host:port`. Undefined when it is none of these.
 */
export function parseEngineHost(apiUrl: string): EngineEndpoint | undefined {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    return undefined;
  }
  if (url.protocol === 'unix:') {
    const socketPath = decodeURIComponent(url.pathname);
    return !url.host && socketPath.startsWith('/') && socketPath.length > 1
      ? { kind: 'unix', socketPath }
      : undefined;
  }
  if (!url.hostname || url.username || url.password || (url.pathname !== '/' && url.pathname !== ''))
    return undefined;
  if (url.protocol === 'tcp:') {
    return url.port ? { kind: 'http', origin: `http://${url.host}`, tls: false } : undefined;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return { kind: 'http', origin: `${url.protocol}//${url.host}`, tls: url.protocol === 'https:' };
  }
  return undefined;
}

export function checkEngineHost(apiUrl: string | null) {
  if (!apiUrl || !parseEngineHost(apiUrl)) {
    throw fail(
      'invalid_engine_host',
      'An engine node needs apiUrl as unix:///path/to/socket, tcp://host:port, http://host:port or https://host:port.',
      { apiUrl: apiUrl ? 'is not a container-engine host' : 'is required for an engine node' },
    );
  }
}

export interface NodeFieldsToCheck {
  name: string;
  nodeType: NodeType;
  ipv4Address: string | null;
  apiUrl: string | null;
  tlsFingerprint: string | null;
  volumeIdShift: number | null;
}

/** Model rules beyond the engine host (answered as 422 validation_failed). */
export function nodeRuleViolations(node: NodeFieldsToCheck): FieldErrors {
  const fields: FieldErrors = {};
  if (!isDomainName(node.name)) fields.name = 'must be the hypervisor hostname (letters, digits, - and .)';
  if (node.ipv4Address !== null && !isIPv4(node.ipv4Address)) fields.ipv4Address = 'must be an IPv4 address';
  if (node.nodeType === 'hypervisor' && node.apiUrl !== null) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(node.apiUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok) fields.apiUrl = 'must be an http:// or https:// URL such as https://pve.example:8006';
  }
  if (node.tlsFingerprint !== null) {
    if (!normalizeFingerprint(node.tlsFingerprint)) {
      fields.tlsFingerprint =
        "must be the certificate's SHA-256 fingerprint as Proxmox VE shows it (AB:CD:… , 32 bytes)";
    } else if (!node.apiUrl?.startsWith('https://')) {
      fields.tlsFingerprint = 'pins a TLS certificate: it needs an https:// apiUrl';
    }
  }
  const shift = node.volumeIdShift;
  if (shift !== null && (!Number.isInteger(shift) || shift < 0 || shift > MAX_VOLUME_ID_SHIFT)) {
    fields.volumeIdShift = `must be an integer from 0 to ${MAX_VOLUME_ID_SHIFT}, or null for the node type's default`;
  }
  return fields;
}
