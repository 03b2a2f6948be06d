import {
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  chownSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareVolumes, removeVolumes } from '../src/volumes.ts';
import type { VolumeEntry } from '../src/snapshot.ts';

const SITE = 7;
const asRoot = process.getuid?.() === 0;

describe('volume folders on the site agent', () => {
  let storage: string;
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'volumes-'));
  });
  afterEach(() => rmSync(storage, { recursive: true, force: true }));

  const folder = (hostname: string, name: string, uid = 100000) =>
    join(storage, String(SITE), String(uid), hostname, name);
  const entry = (id: number, hostPath: string, extra: Partial<VolumeEntry> = {}): VolumeEntry => ({
    id,
    containerHostname: 'db1',
    name: 'data',
    hostPath,
    mode: 'rw',
    status: 'pending',
    ...extra,
  });
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it.runIf(asRoot)('gives a folder its owner, closed to others (0770 rw, 0750 ro)', async () => {
    const rw = folder('db1', 'data');
    const ro = folder('db1', 'conf');
    const results = await prepareVolumes([
      entry(1, rw, { uid: 100999, gid: 101000 }),
      entry(2, ro, { mode: 'ro', uid: 100000, gid: 100000 }),
      entry(3, folder('db1', 'done'), { status: 'ready', uid: 5, gid: 5 }),
    ]);
    expect(results).toEqual([
      { id: 1, status: 'ready', message: null },
      { id: 2, status: 'ready', message: null },
    ]);
    expect([statSync(rw).uid, statSync(rw).gid, modeOf(rw)]).toEqual([100999, 101000, 0o770]);
    expect([statSync(ro).uid, statSync(ro).gid, modeOf(ro)]).toEqual([100000, 100000, 0o750]);
    // The folders above stay root's and traversable.
    const parent = join(storage, String(SITE));
    expect([statSync(parent).uid, modeOf(parent)]).toEqual([0, 0o755]);
    expect(existsSync(folder('db1', 'done'))).toBe(false);
  });

  it.runIf(asRoot)('owns an existing folder again without touching the data in it', async () => {
    const path = folder('db1', 'data');
    mkdirSync(join(path, 'inner'), { recursive: true });
    writeFileSync(join(path, 'inner', 'file'), 'x');
    chownSync(join(path, 'inner', 'file'), 1234, 1234);
    expect(await prepareVolumes([entry(1, path, { uid: 100070, gid: 100070 })])).toEqual([
      { id: 1, status: 'ready', message: null },
    ]);
    expect(statSync(path).uid).toBe(100070);
    expect(statSync(join(path, 'inner')).uid).toBe(0);
    expect(statSync(join(path, 'inner', 'file')).uid).toBe(1234);
  });

  it('without an owner in the snapshot (an older manager) makes the folder as before', async () => {
    const path = folder('db1', 'data');
    expect(await prepareVolumes([entry(1, path)])).toEqual([{ id: 1, status: 'ready', message: null }]);
    expect(statSync(path).uid).toBe(process.getuid?.());
    expect(statSync(path).isDirectory()).toBe(true);
  });

  it('reports a folder it cannot make as failed, with the reason', async () => {
    writeFileSync(join(storage, 'file'), '');
    const results = await prepareVolumes([
      entry(1, join(storage, 'file', 'data'), { uid: 1, gid: 1 }),
      entry(2, '/srv/../etc/data', { uid: 1, gid: 1 }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['failed', 'failed']);
    expect(results[0]!.message).toMatch(/EEXIST|ENOTDIR/);
    expect(results[1]!.message).toBe('refusing host path /srv/../etc/data: it must be absolute, without ..');
  });

  it('removes a released folder with its data, and a missing one counts as removed', async () => {
    const path = folder('db1', 'data');
    mkdirSync(join(path, 'deep'), { recursive: true });
    writeFileSync(join(path, 'deep', 'file'), 'x');
    const results = await removeVolumes(
      [
        { id: 1, hostPath: path },
        { id: 2, hostPath: folder('gone', 'data') },
      ],
      SITE,
    );
    expect(results).toEqual([
      { id: 1, status: 'removed', message: null },
      { id: 2, status: 'removed', message: null },
    ]);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(storage, String(SITE), '100000', 'db1'))).toBe(true);
  });

  it('never removes a path that is not a volume folder of its own site', async () => {
    const keep = folder('db1', 'data');
    mkdirSync(keep, { recursive: true });
    const refused = [
      '/',
      storage,
      join(storage, String(SITE)),
      join(storage, String(SITE), '100000', 'db1'),
      `${storage}/${SITE}/100000/db1/../db1`,
      `${storage}/${SITE}/100000/db1/data/`,
      `${storage}//${SITE}/100000/db1/data`,
      `${storage}/${SITE}/100000/db1/.`,
      folder('db1', 'data').replace(`/${SITE}/`, '/8/'),
      `${storage}/${SITE}/root/db1/data`,
      `relative/${SITE}/100000/db1/data`,
      `/${SITE}/100000/db1/data`,
    ];
    const results = await removeVolumes(
      refused.map((hostPath, id) => ({ id, hostPath })),
      SITE,
    );
    expect(results.filter((result) => result.status !== 'failed')).toEqual([]);
    expect(results[0]!.message).toBe(
      `refusing to remove /: not a volume folder of site ${SITE} (<storage>/<site>/<uid>/<hostname>/<name>)`,
    );
    expect(existsSync(keep)).toBe(true);
  });

  it('removes a symbolic link in a volume folder place without following it', async () => {
    const outside = join(storage, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'precious'), 'x');
    const link = folder('db1', 'data');
    mkdirSync(join(link, '..'), { recursive: true });
    symlinkSync(outside, link);
    expect(await removeVolumes([{ id: 1, hostPath: link }], SITE)).toEqual([
      { id: 1, status: 'removed', message: null },
    ]);
    expect(existsSync(join(outside, 'precious'))).toBe(true);
  });
});
