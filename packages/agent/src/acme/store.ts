import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** What the agent knows of one host's certificate: what it reports and what paces its retries. */
export interface CertificateStatus {
  hostname: string;
  /** ISO time the current certificate expires; null before the first one. */
  notAfter: string | null;
  /** Why the last issuance or renewal failed; null once one succeeds. */
  lastError: string | null;
  /** ISO time of the next issuance or renewal attempt. */
  nextAttempt: string | null;
  /** Failures in a row, for the back-off. */
  failures: number;
}

/** An order in flight, kept so that a run interrupted half-way resumes it. */
export interface PendingOrder {
  url: string;
  directoryUrl: string;
  /** The certificate's private key, which the order's CSR was made with. */
  key: string;
}

export interface Account {
  url: string;
  key: string;
}

async function writeAtomically(path: string, content: string, mode: number) {
  await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode });
  await rename(temporary, path);
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

const PRIVATE = 0o600;
const PUBLIC = 0o644;

/**
 * The ACME folder: `accounts/` (one key per directory and contact), `orders/<host>.json`,
 * `certs/<host>/{fullchain,privkey}.pem`, `status.json`, and the HTTP-01 answers nginx serves from
 * `challenges/` (readable by nginx's workers).
 */
export class AcmeStore {
  constructor(readonly dir: string) {}

  /** nginx's `root` for `/.well-known/acme-challenge/`. */
  static webroot(dir: string) {
    return join(dir, 'challenges');
  }

  static certificatePaths(dir: string, host: string) {
    return { cert: join(dir, 'certs', host, 'fullchain.pem'), key: join(dir, 'certs', host, 'privkey.pem') };
  }

  private accountFile(directoryUrl: string, email: string) {
    const id = createHash('sha256').update(`${directoryUrl}\n${email}`).digest('hex').slice(0, 32);
    return join(this.dir, 'accounts', `${id}.json`);
  }

  account(directoryUrl: string, email: string) {
    return readJson<Account>(this.accountFile(directoryUrl, email));
  }

  saveAccount(directoryUrl: string, email: string, account: Account) {
    return writeAtomically(this.accountFile(directoryUrl, email), JSON.stringify(account), PRIVATE);
  }

  private orderFile(host: string) {
    return join(this.dir, 'orders', `${host}.json`);
  }

  pendingOrder(host: string) {
    return readJson<PendingOrder>(this.orderFile(host));
  }

  savePendingOrder(host: string, order: PendingOrder) {
    return writeAtomically(this.orderFile(host), JSON.stringify(order), PRIVATE);
  }

  dropPendingOrder(host: string) {
    return rm(this.orderFile(host), { force: true });
  }

  async certificate(host: string): Promise<string | undefined> {
    return readFile(AcmeStore.certificatePaths(this.dir, host).cert, 'utf8').catch(() => undefined);
  }

  async saveCertificate(host: string, fullchain: string, key: string) {
    const paths = AcmeStore.certificatePaths(this.dir, host);
    await writeAtomically(paths.key, key, PRIVATE);
    await writeAtomically(paths.cert, fullchain, PUBLIC);
  }

  private challengeFile(token: string) {
    // Tokens are base64url (RFC 8555 §8.3): no path separators.
    return join(AcmeStore.webroot(this.dir), '.well-known', 'acme-challenge', token.replace(/[^\w-]/g, ''));
  }

  saveChallenge(token: string, keyAuthorization: string) {
    return writeAtomically(this.challengeFile(token), keyAuthorization, PUBLIC);
  }

  dropChallenge(token: string) {
    return rm(this.challengeFile(token), { force: true });
  }

  async statuses(): Promise<Record<string, CertificateStatus>> {
    return (await readJson<Record<string, CertificateStatus>>(join(this.dir, 'status.json'))) ?? {};
  }

  saveStatuses(statuses: Record<string, CertificateStatus>) {
    return writeAtomically(join(this.dir, 'status.json'), JSON.stringify(statuses, null, 2), PUBLIC);
  }
}
