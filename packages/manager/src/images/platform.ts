/** The CPU part of an OCI platform: an architecture and, where it matters (arm), a variant. */
export interface Platform {
  architecture: string;
  variant?: string | undefined;
}

/** What the manager assumes when nothing tells it better. */
export const DEFAULT_PLATFORM: Platform = { architecture: 'amd64' };

/**
 * Kernel (`uname -m`, Docker's `/info` `Architecture`) and Go (Podman's `/info`, Docker's `/version`)
 * names → the OCI image-index platform names, as containerd normalises them.
 */
const MACHINES: Record<string, Platform> = {
  x86_64: { architecture: 'amd64' },
  'x86-64': { architecture: 'amd64' },
  amd64: { architecture: 'amd64' },
  i386: { architecture: '386' },
  i486: { architecture: '386' },
  i586: { architecture: '386' },
  i686: { architecture: '386' },
  x86: { architecture: '386' },
  '386': { architecture: '386' },
  aarch64: { architecture: 'arm64' },
  arm64: { architecture: 'arm64' },
  armv8l: { architecture: 'arm', variant: 'v8' },
  armhf: { architecture: 'arm', variant: 'v7' },
  armv7l: { architecture: 'arm', variant: 'v7' },
  armv7: { architecture: 'arm', variant: 'v7' },
  arm: { architecture: 'arm', variant: 'v7' },
  armel: { architecture: 'arm', variant: 'v6' },
  armv6l: { architecture: 'arm', variant: 'v6' },
  armv6: { architecture: 'arm', variant: 'v6' },
  armv5tel: { architecture: 'arm', variant: 'v5' },
  armv5l: { architecture: 'arm', variant: 'v5' },
  armv5: { architecture: 'arm', variant: 'v5' },
  ppc64el: { architecture: 'ppc64le' },
  loongarch64: { architecture: 'loong64' },
  mips64el: { architecture: 'mips64le' },
};

/** A node's machine name as an OCI platform; a name we do not know is kept (lower-cased) as it is. */
export function platformOfMachine(machine: string): Platform {
  const name = machine.trim().toLowerCase();
  return MACHINES[name] ?? { architecture: name };
}

/** `arm64`, `arm/v7` (the `?arch=` form) → a platform. */
export function parsePlatform(text: string): Platform {
  const [architecture = '', variant] = text.split('/');
  return { architecture, variant };
}

export const formatPlatform = (platform: Platform) =>
  platform.variant ? `${platform.architecture}/${platform.variant}` : platform.architecture;

/** The variant an absent one stands for (the OCI image-index spec's and containerd's defaults). */
const DEFAULT_VARIANT: Record<string, string> = { arm64: 'v8', arm: 'v7', amd64: 'v1' };
const variantOf = (platform: Platform) => platform.variant || DEFAULT_VARIANT[platform.architecture] || '';

/** Variants a node runs, best first: its own, then (32-bit arm) every older one down to v5. */
function runnableVariants(wanted: Platform): string[] {
  const variant = variantOf(wanted);
  const arm = /^v(\d+)$/.exec(variant);
  if (wanted.architecture !== 'arm' || !arm) return [variant];
  const variants: string[] = [];
  for (let level = Number(arm[1]); level >= 5; level--) variants.push(`v${level}`);
  return variants;
}

export interface IndexEntry {
  platform?: { architecture?: string; os?: string; variant?: string } | undefined;
}

/** The entry of a manifest list / OCI index a linux node of platform `wanted` would pull. */
export function chooseManifest<T extends IndexEntry>(entries: T[], wanted: Platform): T | undefined {
  const linux = entries.filter(
    (entry) =>
      (entry.platform?.os ?? 'linux') === 'linux' && entry.platform?.architecture === wanted.architecture,
  );
  for (const variant of runnableVariants(wanted)) {
    const found = linux.find(
      (entry) =>
        variantOf({ architecture: wanted.architecture, variant: entry.platform?.variant }) === variant,
    );
    if (found) return found;
  }
  return undefined;
}
