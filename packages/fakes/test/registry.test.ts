import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA, RegistryFake } from '../src/index.ts';

const ACCEPT = [MEDIA.ociIndex, MEDIA.dockerList, MEDIA.ociManifest, MEDIA.dockerManifest].join(', ');

/** The distribution client flow from the docs: challenge → token → manifest(s) → config blob. */
class RegistryClient {
  private token: string | undefined;
  constructor(
    private readonly base: string,
    private readonly basic?: string,
  ) {}

  async get(path: string, accept = ACCEPT): Promise<Response> {
    const headers: Record<string, string> = { accept };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await fetch(`${this.base}${path}`, { headers });
    if (res.status !== 401) return res;
    const challenge = res.headers.get('www-authenticate') ?? '';
    const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const url = new URL(params.realm!);
    url.searchParams.set('service', params.service!);
    if (params.scope) url.searchParams.set('scope', params.scope);
    const tokenRes = await fetch(url, {
      headers: this.basic ? { authorization: `Basic ${this.basic}` } : {},
    });
    if (tokenRes.status !== 200) return tokenRes;
    this.token = ((await tokenRes.json()) as { token: string }).token;
    return fetch(`${this.base}${path}`, { headers: { accept, authorization: `Bearer ${this.token}` } });
  }
}

describe('OCI registry fake', () => {
  const fake = new RegistryFake({
    auth: { users: { bob: 's3cret' }, privateRepositories: ['team/private'] },
  });

  beforeAll(async () => {
    await fake.start();
    fake.addImage('library/nginx', '1.27', {
      platforms: [
        { architecture: 'amd64', os: 'linux' },
        { architecture: 'arm64', os: 'linux', variant: 'v8' },
      ],
      config: {
        ExposedPorts: { '80/tcp': {} },
        Env: ['NGINX_VERSION=1.27.3'],
        Entrypoint: ['/docker-entrypoint.sh'],
        Cmd: ['nginx', '-g', 'daemon off;'],
        Labels: { 'org.mieweb.opensource-server.services.http.port': '80' },
      },
    });
    fake.addImage('team/app', 'v1', {
      format: 'oci',
      index: true,
      config: { ExposedPorts: { '8080/tcp': {} } },
    });
    fake.addImage('team/private', 'latest');
  });
  afterAll(() => fake.stop());

  it('challenges /v2/ with a Bearer realm and accepts the issued token', async () => {
    const res = await fetch(`${fake.url}/v2/`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="${fake.url}/token",service="registry.fake"`,
    );
    expect(res.headers.get('docker-distribution-api-version')).toBe('registry/2.0');
    expect(await res.json()).toEqual({
      errors: [{ code: 'UNAUTHORIZED', message: 'authentication required', detail: null }],
    });
    const client = new RegistryClient(fake.url);
    expect((await client.get('/v2/')).status).toBe(200);
  });

  it('serves a manifest list, a per-platform manifest and the config blob with real digests', async () => {
    const client = new RegistryClient(fake.url);
    const listRes = await client.get('/v2/library/nginx/manifests/1.27');
    expect(listRes.headers.get('content-type')).toBe(MEDIA.dockerList);
    const listBytes = Buffer.from(await listRes.arrayBuffer());
    const digest = `sha256:${createHash('sha256').update(listBytes).digest('hex')}`;
    expect(listRes.headers.get('docker-content-digest')).toBe(digest);
    const list = JSON.parse(listBytes.toString()) as {
      manifests: { digest: string; platform: { architecture: string } }[];
    };
    expect(list.manifests.map((m) => m.platform.architecture)).toEqual(['amd64', 'arm64']);
    const arm = list.manifests.find((m) => m.platform.architecture === 'arm64')!;
    const manifest = (await (await client.get(`/v2/library/nginx/manifests/${arm.digest}`)).json()) as {
      config: { digest: string };
    };
    const blobRes = await client.get(`/v2/library/nginx/blobs/${manifest.config.digest}`);
    const blob = JSON.parse(await blobRes.text()) as {
      architecture: string;
      config: Record<string, unknown>;
    };
    expect(blob.architecture).toBe('arm64');
    expect(blob.config).toMatchObject({
      ExposedPorts: { '80/tcp': {} },
      Entrypoint: ['/docker-entrypoint.sh'],
      Cmd: ['nginx', '-g', 'daemon off;'],
      Labels: { 'org.mieweb.opensource-server.services.http.port': '80' },
    });
    expect(blob.config.Env).toContain('NGINX_VERSION=1.27.3');
    const head = await fetch(`${fake.url}/v2/library/nginx/manifests/1.27`, { method: 'HEAD' });
    expect(head.status).toBe(401);
    const schema2Only = await client.get('/v2/library/nginx/manifests/1.27', MEDIA.dockerManifest);
    expect(schema2Only.headers.get('content-type')).toBe(MEDIA.dockerManifest);
  });

  it("serves an index whose platforms' images differ where the spec says so", async () => {
    fake.addImage('acme/multi', '1', {
      format: 'oci',
      platforms: [
        { architecture: 'amd64', os: 'linux', config: { Volumes: { '/data/amd64': {} } } },
        { architecture: 'arm', os: 'linux', variant: 'v7', config: { ExposedPorts: { '7/tcp': {} } } },
      ],
      config: { ExposedPorts: { '80/tcp': {} } },
    });
    const client = new RegistryClient(fake.url);
    const index = (await (await client.get('/v2/acme/multi/manifests/1')).json()) as {
      manifests: { digest: string; platform: Record<string, string> }[];
    };
    expect(index.manifests.map((m) => m.platform)).toEqual([
      { architecture: 'amd64', os: 'linux' },
      { architecture: 'arm', os: 'linux', variant: 'v7' },
    ]);
    const configs = [];
    for (const entry of index.manifests) {
      const manifest = (await (await client.get(`/v2/acme/multi/manifests/${entry.digest}`)).json()) as {
        config: { digest: string };
      };
      const blob = (await (await client.get(`/v2/acme/multi/blobs/${manifest.config.digest}`)).json()) as {
        architecture: string;
        variant?: string;
        config: { ExposedPorts?: object; Volumes?: object };
      };
      configs.push(blob);
    }
    expect(configs[0]).toMatchObject({
      architecture: 'amd64',
      config: { ExposedPorts: { '80/tcp': {} }, Volumes: { '/data/amd64': {} } },
    });
    expect(configs[1]).toMatchObject({
      architecture: 'arm',
      variant: 'v7',
      config: { ExposedPorts: { '7/tcp': {} } },
    });
    expect(configs[1]!.config.Volumes).toBeUndefined();
  });

  it('serves an OCI index and lists tags', async () => {
    const client = new RegistryClient(fake.url);
    const res = await client.get('/v2/team/app/manifests/v1');
    expect(res.headers.get('content-type')).toBe(MEDIA.ociIndex);
    expect(((await res.json()) as { manifests: unknown[] }).manifests).toHaveLength(1);
    expect(await (await client.get('/v2/library/nginx/tags/list')).json()).toEqual({
      name: 'library/nginx',
      tags: ['1.27'],
    });
  });

  it('answers unknown tags, repositories and blobs with the distribution error codes', async () => {
    const client = new RegistryClient(fake.url);
    const tag = await client.get('/v2/library/nginx/manifests/nope');
    expect(tag.status).toBe(404);
    expect(await tag.json()).toEqual({
      errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown', detail: { Tag: 'nope' } }],
    });
    const repo = await client.get('/v2/library/none/manifests/latest');
    expect(((await repo.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('NAME_UNKNOWN');
    const blob = await client.get(`/v2/library/nginx/blobs/sha256:${'0'.repeat(64)}`);
    expect(((await blob.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('BLOB_UNKNOWN');
  });

  it('requires credentials for private repositories', async () => {
    const anonymous = await new RegistryClient(fake.url).get('/v2/team/private/manifests/latest');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('scope="repository:team/private:pull"');
    const wrong = await new RegistryClient(fake.url, Buffer.from('bob:nope').toString('base64')).get(
      '/v2/team/private/manifests/latest',
    );
    expect(await wrong.json()).toEqual({ details: 'incorrect username or password' });
    const bob = new RegistryClient(fake.url, Buffer.from('bob:s3cret').toString('base64'));
    expect((await bob.get('/v2/team/private/manifests/latest')).status).toBe(200);
  });

  it('fails with 500 on demand', async () => {
    fake.failNext(1, { path: '/v2/library/nginx/manifests/*', status: 500 });
    const client = new RegistryClient(fake.url);
    const res = await client.get('/v2/library/nginx/manifests/1.27');
    expect(res.status).toBe(500);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('UNKNOWN');
    expect((await client.get('/v2/library/nginx/manifests/1.27')).status).toBe(200);
  });

  it('serves a given answer instead of its own on demand (replyNext), then its own again', async () => {
    fake.replyNext(1, {
      path: /\/blobs\//,
      reply: (req) => ({ status: 307, headers: { location: `http://cdn.invalid${req.path}` } }),
    });
    const path = `/v2/library/nginx/blobs/sha256:${'0'.repeat(64)}`;
    const redirected = await fetch(`${fake.url}${path}`, { redirect: 'manual' });
    expect(redirected.status).toBe(307);
    expect(redirected.headers.get('location')).toBe(`http://cdn.invalid${path}`);
    expect((await fetch(`${fake.url}${path}`, { redirect: 'manual' })).status).toBe(401);
  });
});
