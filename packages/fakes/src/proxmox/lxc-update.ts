import type { AuthIdentity } from './auth.ts';
import { paramError, pveError } from './errors.ts';
import {
  CONFIG_SCHEMA,
  checkRootOnlyOptions,
  isHotOption,
  rejectNewOptions,
  normaliseNet,
  normaliseTags,
  UPDATE_SCHEMA,
} from './lxc-options.ts';
import { validateParams } from './params.ts';
import { configDigest } from './state.ts';
import type { PveContainer } from './state.ts';

const REQUIRED = new Set(['memory', 'rootfs', 'ostype']);

function knownOption(name: string): boolean {
  if (CONFIG_SCHEMA[name]) return true;
  return Object.keys(CONFIG_SCHEMA).some((p) => p.includes('\\') && new RegExp(`^${p}$`).test(name));
}

/** `PUT /nodes/{node}/lxc/{vmid}/config`, synchronous, as pve-container's update_pct_config. */
export function updateConfig(
  ct: PveContainer,
  values: Record<string, string>,
  auth: AuthIdentity,
  oci: boolean,
): void {
  rejectNewOptions(values, oci);
  const params = validateParams(values, UPDATE_SCHEMA);
  const { node: _n, vmid: _v, delete: del, revert, digest, ...options } = params;
  const deletions = String(del ?? '')
    .split(/[,;\s]+/)
    .filter(Boolean);
  const reverts = String(revert ?? '')
    .split(/[,;\s]+/)
    .filter(Boolean);
  for (const name of [...deletions, ...reverts]) {
    if (!knownOption(name)) throw paramError({ delete: `unknown option '${name}'` });
  }
  if (!Object.keys(options).length && !deletions.length && !reverts.length)
    throw pveError(500, 'no options specified');
  if (digest !== undefined && digest !== configDigest(ct.config)) {
    throw pveError(500, 'detected modified configuration - file changed by other user? Try again.');
  }
  if (ct.lock) throw pveError(500, `CT is locked (${ct.lock})`);
  if ('unprivileged' in options || deletions.includes('unprivileged')) {
    throw pveError(500, `unable to modify read-only option: 'unprivileged'`);
  }
  for (const name of deletions)
    if (REQUIRED.has(name)) throw pveError(500, `unable to delete required option '${name}'`);
  checkRootOnlyOptions(auth, options);

  for (const [key, value] of Object.entries(options)) {
    if (/^net\d+$/.test(key)) options[key] = normaliseNet(key, String(value));
    if (key === 'tags') options[key] = normaliseTags(String(value));
  }
  for (const name of reverts) delete ct.pending[name];
  const running = ct.status === 'running';
  for (const name of deletions) {
    if (running && !isHotOption(name)) ct.pending[name] = '';
    else delete ct.config[name];
  }
  for (const [key, value] of Object.entries(options)) {
    if (running && !isHotOption(key)) ct.pending[key] = value;
    else ct.config[key] = value;
  }
}
