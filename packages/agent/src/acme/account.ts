import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import * as acme from 'acme-client';
import type { AcmeStore } from './store.ts';

export const LETS_ENCRYPT = acme.directory.letsencrypt.production;

/** Trusts a private CA's certificates (besides the public ones) for every ACME directory. */
export function trustAcmeCa(caFile: string | undefined) {
  if (!caFile) return;
  acme.axios.defaults.httpsAgent = new Agent({ ca: [...rootCertificates, readFileSync(caFile, 'utf8')] });
}

// Validation usually takes a second or two: poll from 1 s on rather than the library's 5 s.
const POLLING = { backoffMin: 1000, backoffMax: 10_000 };

/** A client on the directory's account for this contact: the one kept in the store, else a new one. */
export async function accountClient(
  store: AcmeStore,
  directoryUrl: string,
  email: string,
): Promise<acme.Client> {
  const saved = await store.account(directoryUrl, email);
  if (saved)
    return new acme.Client({ ...POLLING, directoryUrl, accountKey: saved.key, accountUrl: saved.url });
  const key = (await acme.crypto.createPrivateEcdsaKey()).toString();
  const client = new acme.Client({ ...POLLING, directoryUrl, accountKey: key });
  await client.createAccount({ termsOfServiceAgreed: true, contact: [`mailto:${email}`] });
  await store.saveAccount(directoryUrl, email, { url: client.getAccountUrl(), key });
  return client;
}
