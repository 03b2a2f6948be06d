import { describe, expect, it } from 'vitest';
import {
  cleanAbsolutePath,
  pathSegment,
  planImageVolumes,
  volumeHostPath,
  volumeStorageDir,
} from '../src/volumes/volume-paths.ts';

describe('volume paths', () => {
  it('makes every component safe: no separator, never . or .., distinct values stay distinct', () => {
    expect(pathSegment('alice')).toBe('alice');
    expect(pathSegment('a.b-c_d')).toBe('a.b-c_d');
    expect(pathSegment('..')).toBe('%2E.');
    expect(pathSegment('.')).toBe('%2E');
    expect(pathSegment('../../etc')).toBe('%2E.%2F..%2Fetc');
    expect(pathSegment('a/b')).not.toBe(pathSegment('a_b'));
    expect(pathSegment('a%2Fb')).not.toBe(pathSegment('a/b'));
    expect(pathSegment('jörg')).toBe('j%C3%B6rg');
    expect(() => pathSegment('')).toThrow();
  });

  it('derives the host path from the node storage, the site, the owner, the hostname and the name', () => {
    expect(volumeStorageDir('local-lvm', '/mnt/pve')).toBe('/mnt/pve/local-lvm');
    expect(volumeStorageDir('/srv/volumes/', '/mnt/pve')).toBe('/srv/volumes');
    expect(volumeStorageDir('../../etc', '/mnt/pve')).toBe('/mnt/pve/%2E.%2F..%2Fetc');
    expect(volumeStorageDir('/srv/../etc', '/mnt/pve')).toBe('/mnt/pve/%2Fsrv%2F..%2Fetc');
    const path = volumeHostPath('/mnt/pve/nfs', {
      siteId: 3,
      ownerUid: 2001,
      hostname: '../web1',
      name: 'data',
    });
    expect(path).toBe('/mnt/pve/nfs/3/2001/%2E.%2Fweb1/data');
  });

  it('names image volumes from their paths and leaves out what cannot be mounted safely', () => {
    const long = `/${'x'.repeat(80)}`;
    const { volumes, skipped } = planImageVolumes([
      '/var/lib/postgresql/data',
      '/data/',
      '/data',
      '/a/b',
      '/a-b',
      '/.hidden',
      long,
      '/',
      'relative',
      '/x/../etc',
      '/a:b',
      '/a,b',
    ]);
    expect(volumes.map((v) => [v.name, v.mountPath])).toEqual([
      ['var-lib-postgresql-data', '/var/lib/postgresql/data'],
      ['data', '/data'],
      ['a-b', '/a/b'],
      [expect.stringMatching(/^a-b-[0-9a-f]{8}$/), '/a-b'],
      ['_hidden', '/.hidden'],
      [expect.stringMatching(/^x{55}-[0-9a-f]{8}$/), long],
    ]);
    expect(skipped).toEqual(['/', 'relative', '/x/../etc', '/a:b', '/a,b']);
    expect(cleanAbsolutePath('/a//b/./c/')).toBe('/a/b/c');
  });

  it('takes at most 32 volumes per image and mount paths of at most 256 characters', () => {
    const tooLong = `/${'y'.repeat(256)}`;
    const plan = planImageVolumes([
      tooLong,
      ...Array.from({ length: 40 }, (_, index) => `/v${index}`),
      '/v0',
    ]);
    expect(plan.volumes).toHaveLength(32);
    expect(plan.volumes.at(-1)?.mountPath).toBe('/v31');
    expect(plan.tooLong).toEqual([tooLong]);
    expect(plan.overLimit).toBe(8);
  });
});
