import type { AuthIdentity } from './auth.ts';
import { paramError, pveError } from './errors.ts';
import {
  checkRootOnlyOptions,
  isHotOption,
  rejectNewOptions,
  normaliseNet,
  normaliseTags,
} from './lxc-options.ts';
import { parametersOf } from './schema/api-schema.ts';
import { propertyOf } from './schema/check-param.ts';
import { configDigest } from './state.ts';
import type { PveContainer } from './state.ts';

const REQUIRED = new Set(['memory', 'rootfs', 'ostype']);
const UPDATE_PARAMETERS = parametersOf('/nodes/{node}/lxc/{vmid}/config', 'PUT');
const NOT_OPTIONS = new Set(['node', 'vmid', 'delete', 'revert', 'digest']);

/** A `pct.conf(5)` option PUT config may set (and so delete or revert). */
function knownOption(name: string): boolean {
  return !NOT_OPTIONS.has(name) && propertyOf(UPDATE_PARAMETERS, name) !== undefined;
}

/** `PUT /nodes/{node}/lxc/{vmid}/config`, synchronous, as pve-container's update_pct_config. */
export function updateConfig(
  ct: PveContainer,
  params: Record<string, string | number>,
  auth: AuthIdentity,
  oci: boolean,
): void {
  rejectNewOptions(params, oci);
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
