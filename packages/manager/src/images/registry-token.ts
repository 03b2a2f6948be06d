import { OutboundError, type GuardedClient } from '@app/server-kit';
import { imageNotFound, readRegistryBody, registryError } from './registry-errors.ts';

/** A token answer is a few hundred bytes; nothing a registry sends back here needs more. */
const MAX_TOKEN_BYTES = 64 * 1024;

/** Registries whose token service lives on a host of its own (the realm is checked against it). */
const TOKEN_SERVICES: Record<string, string> = { 'registry-1.docker.io': 'auth.docker.io' };

export interface TokenRequest {
  /** `Bearer realm="…",service="…",scope="…"` from the registry's 401. */
  challenge: string;
  registry: URL;
  repository: string;
  client: GuardedClient;
  signal: AbortSignal;
}

/**
 * Where the registry may send the manager for a token: HTTPS on the registry's own host (or its known
 * token service), or an allowlisted host. Anything else would let a registry aim the manager anywhere.
 */
function checkRealm(realm: URL, registry: URL, client: GuardedClient) {
  if (client.allowlisted(realm)) return;
  const ownHost =
    realm.hostname === registry.hostname || TOKEN_SERVICES[registry.hostname] === realm.hostname;
  if (realm.protocol !== 'https:' || !ownHost) {
    throw new OutboundError(`token realm ${realm.origin} is not https on the registry's own host`);
  }
}

/** The anonymous pull token a Bearer challenge leads to. */
export async function requestToken(request: TokenRequest): Promise<string> {
  const params = new Map<string, string>();
  for (const match of request.challenge.slice(7).matchAll(/(\w+)="([^"]*)"/g))
    params.set(match[1]!, match[2]!);
  const realm = params.get('realm');
  if (!realm) throw registryError('The registry challenge names no token realm.');
  if (!URL.canParse(realm)) throw new OutboundError(`token realm "${realm}" is not a URL`);
  const url = new URL(realm);
  checkRealm(url, request.registry, request.client);
  if (params.get('service')) url.searchParams.set('service', params.get('service')!);
  url.searchParams.set('scope', params.get('scope') ?? `repository:${request.repository}:pull`);
  const response = await request.client.get(url, { signal: request.signal });
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw imageNotFound(`Image ${request.repository} was not found (or is private).`);
  }
  const text = await readRegistryBody(response, MAX_TOKEN_BYTES, 'the token');
  let body: { token?: unknown; access_token?: unknown } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  const token = body?.token ?? body?.access_token;
  if (!response.ok || typeof token !== 'string' || !token)
    throw registryError(`The registry token service answered ${response.status}.`);
  return token;
}
