import { describe, expect, it } from 'vitest';
import { joinWirings } from '../src/common/wirings.ts';

describe('joining service wirings', () => {
  it('keeps every service of every wiring', () => {
    const users = { name: 'users' };
    const domains = { name: 'domains' };
    expect(joinWirings({ users }, { domains, oidc: undefined })).toEqual({ users, domains, oidc: undefined });
  });

  it('refuses a service that two wirings define instead of keeping the last', () => {
    expect(() => joinWirings({ externalDomains: 'repository' }, { externalDomains: 'service' })).toThrow(
      'two wirings define the service "externalDomains"',
    );
  });
});
