/* global fetch, AbortSignal */
// The image's HEALTHCHECK: asks the service that is this container's main process (its command line in
// /proc/1/cmdline) on its own port whether it is ready (it and its database answer). A job worker serves no HTTP: it is healthy while it runs.
import { readFileSync } from 'node:fs';

const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
const has = (part) => args.some((arg) => arg.includes(part));
const role = args.includes('--role') ? args[args.indexOf('--role') + 1] : 'all';
const url = has('packages/translator/')
  ? `http://127.0.0.1:${process.env.TRANSLATOR_PORT ?? 3100}/api/readyz`
  : role === 'worker'
    ? null
    : `http://127.0.0.1:${process.env.MANAGER_PORT ?? 3000}/api/v1/readyz`;
if (url) {
  const answer = await fetch(url, { signal: AbortSignal.timeout(4_000) }).catch((error) => error);
  if (!answer.ok) {
    console.error(`unhealthy: ${url}: ${answer.status ?? answer.message}`);
    process.exit(1);
  }
}
