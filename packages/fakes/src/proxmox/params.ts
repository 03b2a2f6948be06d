import { parseJsonBody } from '../shared/ids.ts';
import type { FakeRequest } from '../shared/types.ts';
import { paramError, pveError } from './errors.ts';

/** Parameters as pve-http-server collects them: query string merged with a form or JSON body. */
export function collectParams(req: FakeRequest): { values: Record<string, string>; fromJson: boolean } {
  const values: Record<string, string> = Object.fromEntries(req.query);
  if (req.body.length === 0) return { values, fromJson: false };
  if (req.method === 'GET' || req.method === 'DELETE') {
    throw pveError(501, `Unexpected content for method '${req.method}'`);
  }
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    const parsed = parseJsonBody(req.body);
    if (!parsed || typeof parsed.value !== 'object' || parsed.value === null) {
      throw paramError({ body: 'invalid JSON' });
    }
    for (const [key, value] of Object.entries(parsed.value)) {
      if (typeof value === 'boolean') values[key] = value ? '1' : '0';
      else if (value !== null && value !== undefined) values[key] = String(value);
    }
    return { values, fromJson: true };
  }
  for (const [key, value] of new URLSearchParams(req.body.toString('utf8'))) values[key] = value;
  return { values, fromJson: false };
}

/** `name=eth0,bridge=vmbr0,ip=dhcp` → ordered map; a bare first item is stored under `defaultKey`. */
export function parsePropertyString(value: string, defaultKey?: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const part of value.split(',')) {
    if (!part) continue;
    const index = part.indexOf('=');
    if (index === -1 && defaultKey && !result.has(defaultKey)) result.set(defaultKey, part);
    else if (index === -1) result.set(part, '1');
    else result.set(part.slice(0, index), part.slice(index + 1));
  }
  return result;
}

/** Canonical order: the default key first, then required keys, then the rest alphabetically. */
export function formatPropertyString(
  map: Map<string, string>,
  defaultKey?: string,
  requiredKeys: string[] = [],
): string {
  const keys = [...map.keys()];
  const head = [defaultKey, ...requiredKeys].filter((k): k is string => !!k && map.has(k));
  const rest = keys.filter((k) => !head.includes(k)).sort();
  return [...head, ...rest]
    .map((key) => (key === defaultKey ? map.get(key)! : `${key}=${map.get(key)!}`))
    .join(',');
}
