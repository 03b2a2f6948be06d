import { describe, expect, it } from 'vitest';
import { imageUserIds, volumeOwner } from '../src/volumes/volume-owner.ts';

describe('who owns a volume folder on the host', () => {
  it("a hypervisor's unprivileged container: its root, shifted by 100000 unless the node says otherwise", () => {
    expect(volumeOwner({ nodeType: 'hypervisor', volumeIdShift: null }, '1000')).toEqual({
      uid: 100000,
      gid: 100000,
    });
    expect(volumeOwner({ nodeType: 'hypervisor', volumeIdShift: 200000 }, null)).toEqual({
      uid: 200000,
      gid: 200000,
    });
    expect(volumeOwner({ nodeType: 'hypervisor', volumeIdShift: 0 }, null)).toEqual({ uid: 0, gid: 0 });
  });

  it("an engine's container: the image's numeric User, unshifted unless the node says otherwise", () => {
    expect(volumeOwner({ nodeType: 'engine', volumeIdShift: null }, null)).toEqual({ uid: 0, gid: 0 });
    expect(volumeOwner({ nodeType: 'engine', volumeIdShift: null }, '1000:1001')).toEqual({
      uid: 1000,
      gid: 1001,
    });
    expect(volumeOwner({ nodeType: 'engine', volumeIdShift: null }, ' 70 ')).toEqual({ uid: 70, gid: 70 });
    expect(volumeOwner({ nodeType: 'engine', volumeIdShift: 100000 }, '999:0')).toEqual({
      uid: 100999,
      gid: 100000,
    });
  });

  it('a user name cannot be resolved without the image: root, with a note for the job log', () => {
    const owner = volumeOwner({ nodeType: 'engine', volumeIdShift: 5000 }, 'postgres');
    expect(owner).toEqual({
      uid: 5000,
      gid: 5000,
      note: 'the image runs as user "postgres", which only its /etc/passwd resolves; the volume folders are owned by the container\'s root (host 5000:5000) instead',
    });
    expect(volumeOwner({ nodeType: 'engine', volumeIdShift: null }, '1000:staff').note).toContain(
      '1000:staff',
    );
  });

  it('reads only plain numeric users', () => {
    expect(imageUserIds('0')).toEqual({ uid: 0, gid: 0 });
    for (const user of ['', 'app', '1000:', ':1000', '1:2:3', '-1', '1e3', '99999999999', '1000:app']) {
      expect(imageUserIds(user), user).toBeUndefined();
    }
  });
});
