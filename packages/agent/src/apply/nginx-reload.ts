import { open, readFile, readlink, stat } from 'node:fs/promises';
import { childrenOf, sleep } from './process.ts';

const POLL_MS = 50;
/** Reading at most this much of the error log per look keeps a chatty log cheap to follow. */
const LOG_READ_MAX = 64 * 1024;

interface LogTail {
  path: string;
  offset: number;
}

/** nginx points its standard error at its error log file: where the master reports a reload it refuses. */
async function errorLogEnd(master: number): Promise<LogTail | undefined> {
  const path = await readlink(`/proc/${master}/fd/2`).catch(() => undefined);
  if (!path?.startsWith('/')) return undefined;
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ? { path, offset: info.size } : undefined;
}

async function textSince(tail: LogTail): Promise<string> {
  const handle = await open(tail.path, 'r');
  try {
    const length = Math.min(LOG_READ_MAX, Math.max(0, (await handle.stat()).size - tail.offset));
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, tail.offset);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The master's `[emerg]` messages once it has given up on the new configuration, else undefined.
 * A port in use is retried for a few seconds before nginx gives up ("still could not bind()").
 */
function refusal(text: string): string | undefined {
  const messages = [...text.matchAll(/\[emerg\] \d+#\d+: (.*)/g)].map((match) => match[1]!.trim());
  if (!messages.some((message) => !message.includes('Address already in use'))) return undefined;
  return [...new Set(messages)].join('; ');
}

/** A worker still accepting connections: alive and not yet titled "worker process is shutting down". */
async function accepting(pid: number): Promise<boolean> {
  const title = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return title !== undefined && title !== '' && !title.includes('shutting down');
}

/**
 * Asking nginx to reload (SIGHUP, `nginx -s reload`, `systemctl reload`) only signals the master: a
 * configuration it then cannot take, such as a port another process holds, shows in its error log
 * while it keeps running the old one. The reload has happened when the master has started new
 * workers and told the old ones to quit: until they stop accepting, a new connection may still be
 * answered with the old configuration.
 */
export async function confirmedReload(master: number, signal: () => unknown, timeoutMs = 10_000) {
  const workers = await childrenOf(master);
  const log = await errorLogEnd(master);
  await signal();
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(POLL_MS)) {
    const now = await childrenOf(master);
    if ([...now].some((pid) => !workers.has(pid))) {
      const old = [...workers].filter((pid) => now.has(pid));
      if (!(await Promise.all(old.map(accepting))).includes(true)) return;
      continue;
    }
    const refused = log && refusal(await textSince(log));
    if (refused) throw new Error(`nginx kept its previous configuration: ${refused}`);
  }
  throw new Error(
    `nginx started no workers for the new configuration within ${timeoutMs / 1000} s; its error log tells why`,
  );
}
