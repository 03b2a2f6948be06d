import { badRequest } from '@app/server-kit';

export interface ImageReference {
  /** Registry base URL, e.g. https://ghcr.io (or the Docker Hub mirror). */
  baseUrl: string;
  repository: string;
  /** Tag or digest. */
  reference: string;
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;

const TEMPLATE_VOLUME = /^[A-Za-z0-9_.-]+:vztmpl\/.+/;

/** A hypervisor template volume id (`local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst`), not an image. */
export const isTemplateVolume = (image: string) => TEMPLATE_VOLUME.test(image);

/**
 * Parses `[registry/]repository[:tag][@digest]` as Docker does: the first component is a registry
 * when it has a dot or a port or is `localhost`; Docker Hub names get `library/`. Registries are
 * asked over HTTPS (the client may fall back to HTTP for an allowlisted one); Docker Hub goes to
 * `mirror` when one is configured.
 */
export function parseImageReference(image: string, mirror: string | undefined): ImageReference {
  const invalid = () =>
    badRequest(`"${image}" is not an image reference such as nginx:1.27 or ghcr.io/owner/app:tag.`, {
      image: 'is not an image reference',
    });
  let rest = image.trim();
  if (!rest || rest.length > 512 || /\s/.test(rest)) throw invalid();
  let reference = 'latest';
  const at = rest.indexOf('@');
  if (at >= 0) {
    reference = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(reference)) throw invalid();
  }
  const slash = rest.indexOf('/');
  const first = slash >= 0 ? rest.slice(0, slash) : '';
  const hasRegistry = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const host = hasRegistry ? first.toLowerCase() : 'docker.io';
  let path = hasRegistry ? rest.slice(slash + 1) : rest;
  const colon = path.lastIndexOf(':');
  if (colon >= 0) {
    const tag = path.slice(colon + 1);
    path = path.slice(0, colon);
    if (!TAG.test(tag)) throw invalid();
    if (at < 0) reference = tag;
  }
  if (!path || !path.split('/').every((part) => COMPONENT.test(part))) throw invalid();
  if (host === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  const baseUrl = host === 'docker.io' ? (mirror ?? 'https://registry-1.docker.io') : `https://${host}`;
  if (!URL.canParse(baseUrl) || new URL(baseUrl).pathname !== '/') throw invalid();
  return { baseUrl, repository: path, reference };
}
