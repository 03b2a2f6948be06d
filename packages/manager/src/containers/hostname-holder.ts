import { conflict } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';

/** The container that already has a hostname: whose it is and where. */
export interface HostnameHolder {
  ownerUid: number;
  owner: string;
  siteId: number;
}

/**
 * 409 conflict on `hostname` for a create that asks for a name in use. It names the holder only to
 * those who may know it: administrators see the owner, the owner sees that it is theirs, anyone else
 * only where the name is used.
 */
export function hostnameTaken(
  hostname: string,
  holder: HostnameHolder | undefined,
  principal: Principal,
  siteId: number,
) {
  const where = !holder || holder.siteId === siteId ? 'on this site' : 'on another site';
  const by = !holder
    ? ''
    : holder.ownerUid === principal.uidNumber
      ? ' by one of your containers'
      : principal.isAdmin
        ? ` by a container of ${holder.owner}`
        : '';
  const message = `${hostname} is already used${by} ${where}; choose another hostname.`;
  return conflict(message, { hostname: message });
}
