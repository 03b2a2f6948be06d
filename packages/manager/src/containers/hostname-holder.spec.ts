import { describe, expect, it } from 'vitest';
import { hostnameTaken } from './hostname-holder.ts';

const alice = { uidNumber: 2001, uid: 'alice', isAdmin: false, via: 'session' as const };
const bob = { uidNumber: 2002, uid: 'bob', isAdmin: false, via: 'session' as const };
const admin = { uidNumber: 2000, uid: 'admin', isAdmin: true, via: 'session' as const };
const holder = { ownerUid: 2001, owner: 'alice', siteId: 1 };

describe('hostnameTaken', () => {
  it('names the owner to administrators, "yours" to the owner, and only the place to anyone else', () => {
    const message = (principal: typeof alice, siteId = 1) =>
      hostnameTaken('web1', holder, principal, siteId).message;
    expect(message(admin)).toBe(
      'web1 is already used by a container of alice on this site; choose another hostname.',
    );
    expect(message(alice)).toBe(
      'web1 is already used by one of your containers on this site; choose another hostname.',
    );
    expect(message(bob)).toBe('web1 is already used on this site; choose another hostname.');
    expect(message(bob, 2)).toBe('web1 is already used on another site; choose another hostname.');
  });

  it('is a 409 conflict on the hostname field', () => {
    const error = hostnameTaken('web1', holder, bob, 1);
    expect(error).toMatchObject({ statusCode: 409, code: 'conflict', fields: { hostname: error.message } });
  });
});
