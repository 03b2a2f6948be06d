import { FakeHttpError } from '../shared/types.ts';

export interface ImageReference {
  /** `docker.io`, `ghcr.io`, `localhost:5000` */
  domain: string;
  /** `library/nginx`, `o/r` */
  path: string;
  tag?: string;
  digest?: string;
}

const NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;

/** Parses a reference like the distribution `reference` package (docker.io and `library/` defaults). */
export function parseReference(input: string): ImageReference {
  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at !== -1) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const slash = rest.indexOf('/');
  const first = slash === -1 ? '' : rest.slice(0, slash);
  const hasDomain = first.includes('.') || first.includes(':') || first === 'localhost';
  const domain = hasDomain ? first : 'docker.io';
  let path = hasDomain ? rest.slice(slash + 1) : rest;
  if (domain === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  if (!NAME.test(path) || (tag !== undefined && !/^[\w][\w.-]{0,127}$/.test(tag))) {
    throw new FakeHttpError(400, 'invalid reference format');
  }
  if (digest !== undefined && !/^sha256:[a-f0-9]{64}$/.test(digest))
    throw new FakeHttpError(400, 'invalid reference format');
  return { domain, path, tag, digest };
}

/** `nginx`, `o/r`, `ghcr.io/o/r` — the short form Docker prints. */
export function familiarName(ref: ImageReference): string {
  if (ref.domain !== 'docker.io') return `${ref.domain}/${ref.path}`;
  return ref.path.startsWith('library/') ? ref.path.slice('library/'.length) : ref.path;
}

/** `nginx:latest` (tag defaulted) or `name@digest`. */
export function familiarString(ref: ImageReference): string {
  if (ref.digest && !ref.tag) return `${familiarName(ref)}@${ref.digest}`;
  return `${familiarName(ref)}:${ref.tag ?? 'latest'}`;
}
