import { randomBytes } from 'node:crypto';
import type { AuthIdentity } from './auth.ts';
import { paramError, permissionError } from './errors.ts';
import { formatPropertyString, parsePropertyString } from './params.ts';
import type { ConfigValue } from './state.ts';

/** Applied at once or hot-plugged on a running CT; everything else waits for the next start. */
export const HOT_OPTIONS = new Set([
  'hostname',
  'cores',
  'tags',
  'description',
  'onboot',
  'protection',
  'startup',
  'hookscript',
  'memory',
  'swap',
  'cpulimit',
  'cpuunits',
]);

export function isHotOption(name: string): boolean {
  return HOT_OPTIONS.has(name) || /^net\d+$/.test(name);
}

export function randomMac(): string {
  const bytes = [...randomBytes(3)].map((b) => b.toString(16).toUpperCase().padStart(2, '0'));
  return ['BC', '24', '11', ...bytes].join(':');
}

/** `env` and `entrypoint` exist from PVE 9.1 on; older versions reject them as unknown. */
export function rejectNewOptions(values: Record<string, unknown>, oci: boolean): void {
  if (oci) return;
  const errors: Record<string, string> = {};
  for (const name of ['env', 'entrypoint']) {
    if (name in values)
      errors[name] = 'property is not defined in schema and the schema does not allow additional properties';
  }
  if (Object.keys(errors).length) throw paramError(errors);
}

/** Normalises `netN` (generated `hwaddr`, `type=veth`, canonical order); bad format → 400. */
export function normaliseNet(key: string, value: string): string {
  const net = parsePropertyString(value);
  if (!net.get('name')) {
    throw paramError({
      [key]: `invalid format - format error\n${key}.name: property is missing and it is not optional`,
    });
  }
  const hwaddr = net.get('hwaddr');
  if (hwaddr && !/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/.test(hwaddr)) {
    throw paramError({
      [key]: `invalid format - format error\n${key}.hwaddr: value does not match the regex pattern`,
    });
  }
  if (hwaddr && parseInt(hwaddr.slice(0, 2), 16) & 1) {
    throw paramError({ [key]: `invalid format - format error\n${key}.hwaddr: MAC address must be unicast` });
  }
  net.set('hwaddr', (hwaddr ?? randomMac()).toUpperCase());
  net.set('type', 'veth');
  return formatPropertyString(net, undefined, ['name']);
}

/** Normalises `tags`: lower-cased, de-duplicated, sorted, `;`-joined. */
export function normaliseTags(value: string): string {
  return [
    ...new Set(
      value
        .split(/[;, ]+/)
        .filter(Boolean)
        .map((t) => t.toLowerCase()),
    ),
  ]
    .sort()
    .join(';');
}

/**
 * What only `root@pam` with a ticket may set: bind mounts, device passthrough, feature flags other
 * than `nesting` (API tokens never count as root@pam).
 */
export function checkRootOnlyOptions(auth: AuthIdentity, options: Record<string, ConfigValue>): void {
  const isRoot = auth.user === 'root@pam' && !auth.tokenid;
  if (isRoot) return;
  for (const [key, value] of Object.entries(options)) {
    if (/^mp\d+$/.test(key) && String(value).startsWith('/')) {
      throw permissionError('mount point type bind is only allowed for root@pam');
    }
    if (/^dev\d+$/.test(key)) {
      throw permissionError('configuring device passthrough is only allowed for root@pam');
    }
    if (key === 'features') {
      const flags = [...parsePropertyString(String(value)).keys()];
      if (flags.some((flag) => flag !== 'nesting')) {
        throw permissionError('changing feature flags (except nesting) is only allowed for root@pam');
      }
    }
  }
}

/** `ostype` pct detects from the template's file name. */
export function detectOstype(ostemplate: string): string {
  const file = ostemplate.split('/').pop() ?? '';
  for (const os of [
    'debian',
    'ubuntu',
    'alpine',
    'centos',
    'fedora',
    'archlinux',
    'opensuse',
    'rockylinux',
  ]) {
    if (file.startsWith(os)) return os === 'rockylinux' ? 'centos' : os;
  }
  return 'unmanaged';
}
