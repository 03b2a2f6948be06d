import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import * as acme from 'acme-client';
import { GuardedHttpsAgent, HostAllowlist } from '@app/server-kit/https-guard';
import type { AgentConfig } from '../config.ts';
import { isAcmeDirectoryUrl } from '../config-values.ts';
import type { AcmeStore } from './store.ts';

export const LETS_ENCRYPT = acme.directory.letsencrypt.production;

let guard: GuardedHttpsAgent | undefined;
let checking = false;

/** Refused before it is sent (no retries): a URL the policy refuses, the directory's own links included. */
async function checkRequest<T extends { url?: string; baseURL?: string }>(request: T): Promise<T> {
  const url = new URL(request.url ?? '', request.baseURL);
  const refused = await guard?.refusal(url);
  if (refused) throw new Error(`the ACME client may not call ${url.origin}: ${refused}`);
  return request;
}

/**
 * Holds every call of the ACME client to the outbound policy: HTTPS only, no redirects, no proxy from
 * the environment, each connection's address judged after resolution (loopback and private addresses
 * only for ACME_ALLOWLIST hosts, link-local and metadata never), a private CA's certificates trusted
 * besides the public ones when ACME_CA_FILE names them.
 */
export function holdAcmeToPolicy({ caFile, allowlist }: Pick<AgentConfig['acme'], 'caFile' | 'allowlist'>) {
  const ca = caFile ? { ca: [...rootCertificates, readFileSync(caFile, 'utf8')] } : {};
  guard?.destroy();
  guard = new GuardedHttpsAgent({ allowlist: new HostAllowlist(allowlist), ...ca });
  Object.assign(acme.axios.defaults, { httpsAgent: guard, maxRedirects: 0, proxy: false });
  if (!checking) acme.axios.interceptors.request.use(checkRequest);
  checking = true;
}

// Validation usually takes a second or two: poll from 1 s on rather than the library's 5 s.
const POLLING = { backoffMin: 1000, backoffMax: 10_000 };

/** A client on the directory's account for this contact: the one kept in the store, else a new one. */
export async function accountClient(
  store: AcmeStore,
  directoryUrl: string,
  email: string,
): Promise<acme.Client> {
  // The manager refuses any other at its API; a snapshot from elsewhere is checked again here.
  if (!isAcmeDirectoryUrl(directoryUrl))
    throw new Error(`the ACME directory ${JSON.stringify(directoryUrl.slice(0, 200))} is not an https URL`);
  const saved = await store.account(directoryUrl, email);
  if (saved)
    return new acme.Client({ ...POLLING, directoryUrl, accountKey: saved.key, accountUrl: saved.url });
  const key = (await acme.crypto.createPrivateEcdsaKey()).toString();
  const client = new acme.Client({ ...POLLING, directoryUrl, accountKey: key });
  await client.createAccount({ termsOfServiceAgreed: true, contact: [`mailto:${email}`] });
  await store.saveAccount(directoryUrl, email, { url: client.getAccountUrl(), key });
  return client;
}
