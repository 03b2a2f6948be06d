import { FakeServer } from '../shared/fake-server.ts';
import type { FakeServerOptions } from '../shared/fake-server.ts';
import { Router } from '../shared/router.ts';
import { FakeHttpError, jsonReply } from '../shared/types.ts';
import type { FakeReply, FakeRequest } from '../shared/types.ts';
import { RegistryTokens } from './auth.ts';
import type { RegistryAuthOptions } from './auth.ts';
import { buildImage, MEDIA } from './content.ts';
import type { Blob, RegistryImageSpec } from './content.ts';

export interface RegistryFakeOptions extends FakeServerOptions {
  auth?: RegistryAuthOptions;
}

interface Repository {
  tags: Map<string, { top: string; fallback?: string }>;
  blobs: Map<string, Blob>;
}

interface RegistryErrorDetails {
  code: string;
  detail?: unknown;
  /** Scope to put in the Bearer challenge of a 401. */
  scope?: string;
}

const CODES: Record<number, string> = {
  401: 'UNAUTHORIZED',
  403: 'DENIED',
  404: 'NAME_UNKNOWN',
  429: 'TOOMANYREQUESTS',
};

function registryError(status: number, code: string, message: string, detail?: unknown, scope?: string) {
  return new FakeHttpError(status, message, { code, detail, scope } satisfies RegistryErrorDetails);
}

/** An OCI Distribution (registry v2) fake with Docker token authentication. */
export class RegistryFake extends FakeServer {
  protected readonly router = new Router();
  readonly tokens: RegistryTokens;
  private readonly repositories = new Map<string, Repository>();

  constructor(options: RegistryFakeOptions = {}) {
    super(options);
    this.tokens = new RegistryTokens(options.auth ?? {});
    this.router
      .get('/v2/', (req) => {
        this.authorize(req);
        return jsonReply(200, {});
      })
      .get('/token', (req) => this.token(req))
      .get('/v2/:name*/tags/list', (req) => {
        const repo = this.repository(req);
        return jsonReply(200, { name: req.params.name, tags: [...repo.tags.keys()].sort() });
      })
      .get('/v2/:name*/manifests/:reference', (req) => this.manifest(req))
      .get('/v2/:name*/blobs/:digest', (req) => {
        const blob = this.repository(req).blobs.get(req.params.digest!);
        if (!blob) throw registryError(404, 'BLOB_UNKNOWN', 'blob unknown to registry', req.params.digest);
        return this.content('application/octet-stream', req.params.digest!, blob.bytes);
      });
  }

  /** `127.0.0.1:<port>` — the registry host part of image references. */
  get host(): string {
    return new URL(this.url).host;
  }

  /** Publishes `repository:tag`. Returns the digest the tag points at (manifest or index). */
  addImage(repository: string, tag: string, spec: RegistryImageSpec = {}): string {
    const built = buildImage(spec);
    let repo = this.repositories.get(repository);
    if (!repo) this.repositories.set(repository, (repo = { tags: new Map(), blobs: new Map() }));
    for (const [digest, blob] of built.blobs) repo.blobs.set(digest, blob);
    repo.tags.set(tag, { top: built.top, fallback: built.fallback });
    return built.top;
  }

  removeImage(repository: string, tag: string): void {
    this.repositories.get(repository)?.tags.delete(tag);
  }

  protected override commonHeaders(): Record<string, string> {
    return { 'docker-distribution-api-version': 'registry/2.0' };
  }

  protected override notFound(): FakeHttpError {
    return registryError(404, 'NOT_FOUND', '404 page not found');
  }

  protected renderError(err: FakeHttpError): FakeReply {
    const details = err.details as RegistryErrorDetails | undefined;
    const code = details?.code ?? CODES[err.status] ?? 'UNKNOWN';
    const headers: Record<string, string> = {};
    if (err.status === 401 && this.tokens.enabled) {
      const scope = details?.scope ? `,scope="${details.scope}"` : '';
      headers['www-authenticate'] =
        `Bearer realm="${this.url}/token",service="${this.tokens.service}"${scope}`;
    }
    if (code === 'NOT_FOUND')
      return {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: '404 page not found\n',
      };
    return jsonReply(
      err.status,
      { errors: [{ code, message: err.message, detail: details?.detail ?? null }] },
      headers,
    );
  }

  private authorize(req: FakeRequest, repository?: string): void {
    if (this.tokens.allows(req.headers.authorization, repository)) return;
    const scope = repository ? `repository:${repository}:pull` : undefined;
    const detail = repository ? [{ Type: 'repository', Class: '', Name: repository, Action: 'pull' }] : null;
    throw registryError(401, 'UNAUTHORIZED', 'authentication required', detail, scope);
  }

  private token(req: FakeRequest): FakeReply {
    if (!this.tokens.enabled) throw this.notFound();
    const issued = this.tokens.issue(req.headers.authorization, req.query.getAll('scope'));
    if (!issued) return jsonReply(401, { details: 'incorrect username or password' });
    const body = {
      token: issued.token,
      access_token: issued.token,
      expires_in: issued.expiresIn,
      issued_at: new Date().toISOString(),
    };
    return jsonReply(200, body);
  }

  private repository(req: FakeRequest): Repository {
    const name = req.params.name!;
    this.authorize(req, name);
    const repo = this.repositories.get(name);
    if (!repo) throw registryError(404, 'NAME_UNKNOWN', 'repository name not known to registry', { name });
    return repo;
  }

  private manifest(req: FakeRequest): FakeReply {
    const repo = this.repository(req);
    const reference = req.params.reference!;
    const isDigest = reference.startsWith('sha256:');
    const tagged = isDigest ? undefined : repo.tags.get(reference);
    const digest = isDigest ? reference : tagged?.top;
    const blob = digest ? repo.blobs.get(digest) : undefined;
    if (!digest || !blob || (!blob.mediaType.includes('manifest') && !blob.mediaType.includes('index'))) {
      const detail = isDigest ? { Name: req.params.name, Revision: reference } : { Tag: reference };
      throw registryError(404, 'MANIFEST_UNKNOWN', 'manifest unknown', detail);
    }
    const accept = String(req.headers.accept ?? '');
    const accepts = (type: string) => !accept || accept.includes(type) || accept.includes('*/*');
    if (accepts(blob.mediaType)) return this.content(blob.mediaType, digest, blob.bytes);
    if (blob.mediaType === MEDIA.dockerList && tagged?.fallback && accepts(MEDIA.dockerManifest)) {
      return this.content(MEDIA.dockerManifest, tagged.fallback, repo.blobs.get(tagged.fallback)!.bytes);
    }
    throw registryError(
      404,
      'MANIFEST_UNKNOWN',
      `OCI index found, but accept header does not support OCI indexes`,
    );
  }

  private content(type: string, digest: string, bytes: Buffer): FakeReply {
    return {
      status: 200,
      headers: { 'content-type': type, 'docker-content-digest': digest, etag: `"${digest}"` },
      body: bytes,
    };
  }
}
