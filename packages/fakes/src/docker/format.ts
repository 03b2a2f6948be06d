/** Docker's `units.HumanDuration`, used in the `Status` column of `GET /containers/json`. */
export function humanDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 1) return 'Less than a second';
  if (s === 1) return '1 second';
  if (s < 60) return `${s} seconds`;
  const m = Math.floor(s / 60);
  if (m === 1) return 'About a minute';
  if (m < 60) return `${m} minutes`;
  const h = Math.round(m / 60);
  if (h === 1) return 'About an hour';
  if (h < 48) return `${h} hours`;
  if (h < 24 * 7 * 2) return `${Math.floor(h / 24)} days`;
  if (h < 24 * 30 * 2) return `${Math.floor(h / 24 / 7)} weeks`;
  if (h < 24 * 365 * 2) return `${Math.floor(h / 24 / 30)} months`;
  return `${Math.floor(h / 24 / 365)} years`;
}

/** One frame of the multiplexed stream format: `[stream, 0, 0, 0, size(4 bytes BE)]` + payload. */
export function muxFrame(stream: 1 | 2, payload: string): Buffer {
  const data = Buffer.from(payload);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(data.length, 4);
  return Buffer.concat([header, data]);
}

/** Query booleans: false for empty, `0`, `no`, `false`, `none`; anything else is true. */
export function queryBool(value: string | null, fallback = false): boolean {
  if (value === null) return fallback;
  return !['', '0', 'no', 'false', 'none'].includes(value.toLowerCase());
}

/** `a.b` and `1.41` compared numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const GO_ARCH: Record<string, string> = {
  x86_64: 'amd64',
  aarch64: 'arm64',
  armv7l: 'arm',
  armv6l: 'arm',
  i686: '386',
  i386: '386',
};

/** The host's `uname -m` as Go names it (`GOARCH`: what `/version` and Podman's `/info` report). */
export const goArch = (machine: string) => GO_ARCH[machine] ?? machine;

/** The flavour Debian names its kernel package by (`6.1.0-28-amd64`, `6.1.0-28-armmp`). */
export const kernelFlavour = (machine: string) => (goArch(machine) === 'arm' ? 'armmp' : goArch(machine));
