import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hash,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One-shot `hash`: several times cheaper than a Hash object, and the API key check runs per request. */
export const sha256Hex = (value: string) => hash('sha256', value, 'hex');

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** AES-256-GCM for secrets stored in the database (node credentials, DNS provider keys). */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = createHash('sha256').update(secretKey).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      body.toString('base64'),
    ].join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** SECRET_KEY from the environment, else the key file in DATA_DIR, created (mode 600) on first start. */
export function loadSecretKey(fromEnv: string | undefined, dataDir: string): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  // Written whole under a private name, then linked into place: of processes starting together on one
  // data directory, one key wins and the others read it complete.
  const draft = `${file}.${process.pid}.${randomToken(6)}`;
  writeFileSync(draft, `${randomToken(32)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  return readFileSync(file, 'utf8').trim();
}
