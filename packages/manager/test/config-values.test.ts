import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { checkin, siteInput, startFleetManager, startImportCluster } from './fleet-helpers.ts';

/** What would end an nginx or dnsmasq directive, open or close a block, or expand a variable. */
const INJECTIONS = (valid: string) => [`${valid};}`, `${valid}\nserver=203.0.113.66`, '$host', `${valid}{`];
const AUTH_SERVER_INJECTIONS = [
  'http://127.0.0.1:4180/;} server { listen 8081; location / { return 200 owned; } } #',
  'http://127.0.0.1:4180/x;}',
  'http://127.0.0.1:4180/\nproxy_pass http://203.0.113.66',
  'http://127.0.0.1:4180/$host',
  'http://127.0.0.1:4180/{',
  'http://127.0.0.1:4180/a b',
  'http://127.0.0.1:4180/"x"',
  "http://127.0.0.1:4180/'x'",
  'http://127.0.0.1:4180/#x',
  'http://127.0.0.1:4180/\\x',
  'http://user:pw@127.0.0.1:4180/',
  'http://127.0.0.1:4180/?next=x',
  'ftp://127.0.0.1:4180/',
  'http:///oauth2',
];

/**
 * Every value the site agent writes into nginx or dnsmasq passes one strict grammar at the API:
 * 422 validation_failed naming the field (400 invalid_service for a service entry, as the spec says).
 */
describe('values that reach nginx or dnsmasq are checked at the API', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;
  let domainId: number;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    domainId = (
      await admin.post('/external-domains', {
        name: 'apps.example.test',
        authServer: 'http://127.0.0.1:4180',
      })
    ).body.data.id;
  });
  afterAll(() => test?.close());

  const expect422 = (response: { status: number; body: any; text: string }, field: string) => {
    expect(response.status, response.text).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.fields[field]).toMatch(/^must /);
  };

  const siteFields: [string, string][] = [
    ['internalDomain', 'main.internal'],
    ['dhcpRange', '10.0.0.100,10.0.0.200'],
    ['subnetMask', '255.255.255.0'],
    ['gateway', '10.0.0.1'],
    ['dnsForwarders', '1.1.1.1,8.8.8.8'],
    ['externalIp', '203.0.113.10'],
  ];
  it.each(siteFields)('site %s: every injection is 422 on create and update', async (field, valid) => {
    for (const value of INJECTIONS(valid)) {
      expect422(await admin.post('/sites', siteInput({ name: 'Other', [field]: value })), field);
      expect422(await admin.put(`/sites/${siteId}`, siteInput({ [field]: value })), field);
    }
    expect422(
      await admin.post('/sites', siteInput({ name: 'Other', [field]: `${valid.slice(0, 4)} x` })),
      field,
    );
  });

  it('site: surrounding whitespace is trimmed, never stored', async () => {
    const response = await admin.put(
      `/sites/${siteId}`,
      siteInput({ dhcpRange: ' 10.0.0.100,10.0.0.200\n', dnsForwarders: '1.1.1.1,8.8.8.8\n' }),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({
      dhcpRange: '10.0.0.100,10.0.0.200',
      dnsForwarders: '1.1.1.1,8.8.8.8',
    });
  });

  it('site: a forwarder may name a port (ip#port); a range may use "-" and spaces around it', async () => {
    const response = await admin.put(
      `/sites/${siteId}`,
      siteInput({ dnsForwarders: '1.1.1.1, 127.0.0.1#5353', dhcpRange: '10.0.0.100 - 10.0.0.200' }),
    );
    expect(response.status, response.text).toBe(200);
    expect422(
      await admin.put(`/sites/${siteId}`, siteInput({ dnsForwarders: '1.1.1.1#99999' })),
      'dnsForwarders',
    );
    expect((await admin.put(`/sites/${siteId}`, siteInput())).status).toBe(200);
  });

  it.each([
    ['name', 'apps2.example.test'],
    ['authServer', 'http://127.0.0.1:4180'],
  ])('external domain %s: every injection is 422 on create and update', async (field, valid) => {
    const values = field === 'authServer' ? AUTH_SERVER_INJECTIONS : INJECTIONS(valid);
    for (const value of values) {
      const body = { name: 'apps2.example.test', [field]: value };
      expect422(await admin.post('/external-domains', body), field);
      expect422(
        await admin.put(`/external-domains/${domainId}`, {
          ...body,
          name: 'apps.example.test',
          [field]: value,
        }),
        field,
      );
    }
    const stored = (await admin.get(`/external-domains/${domainId}`)).body.data;
    expect(stored).toMatchObject({ name: 'apps.example.test', authServer: 'http://127.0.0.1:4180' });
  });

  it('external domain: an auth server with a port and a plain path is taken', async () => {
    const body = { name: 'apps.example.test', authServer: 'https://auth.example.test:8443/oauth2-proxy/v1' };
    const response = await admin.put(`/external-domains/${domainId}`, body);
    expect(response.status, response.text).toBe(200);
    expect(
      (await admin.put(`/external-domains/${domainId}`, { ...body, authServer: 'http://[::1]:4180' })).status,
    ).toBe(200);
    await admin.put(`/external-domains/${domainId}`, {
      name: 'apps.example.test',
      authServer: 'http://127.0.0.1:4180',
    });
  });

  it('external domain acmeDirectoryUrl: an https URL only (RFC 8555 §6.1), 422 for anything else', async () => {
    const refused = [
      'http://169.254.169.254/latest/meta-data/',
      'http://acme.example.test/directory',
      'ftp://acme.example.test/directory',
      'file:///etc/passwd',
      'https://user:pw@acme.example.test/directory',
      'https://acme.example.test/directory#x',
      'https://acme.example.test/dir ectory',
      'https:///directory',
    ];
    for (const acmeDirectoryUrl of refused) {
      expect422(
        await admin.post('/external-domains', { name: 'acme.example.test', acmeDirectoryUrl }),
        'acmeDirectoryUrl',
      );
      expect422(
        await admin.put(`/external-domains/${domainId}`, { name: 'apps.example.test', acmeDirectoryUrl }),
        'acmeDirectoryUrl',
      );
    }
    for (const acmeDirectoryUrl of [
      'https://acme-v02.api.letsencrypt.org/directory',
      'https://127.0.0.1:14000/dir',
    ]) {
      const taken = await admin.put(`/external-domains/${domainId}`, {
        name: 'apps.example.test',
        acmeDirectoryUrl,
      });
      expect(taken.status, taken.text).toBe(200);
    }
    await admin.put(`/external-domains/${domainId}`, {
      name: 'apps.example.test',
      authServer: 'http://127.0.0.1:4180',
    });
  });

  it.each([
    ['name', 'pve2'],
    ['ipv4Address', '10.0.0.9'],
  ])('node %s: every injection is 422', async (field, valid) => {
    for (const value of INJECTIONS(valid)) {
      expect422(
        await admin.post(`/sites/${siteId}/nodes`, { name: 'pve2', nodeType: 'dummy', [field]: value }),
        field,
      );
    }
  });

  it('container hostname: every injection is 422', async () => {
    for (const value of INJECTIONS('web9')) {
      expect422(
        await admin.post(`/sites/${siteId}/containers`, { hostname: value, template: 'nginx:latest' }),
        'hostname',
      );
    }
  });

  it.each([
    ['externalHostname', { type: 'http', internalPort: 80, externalHostname: 'web', externalDomainId: 0 }],
    ['dnsName', { type: 'srv', internalPort: 389, dnsName: '_ldap._tcp' }],
  ])('service %s: every injection is 400 invalid_service naming the entry', async (field, entry) => {
    for (const value of INJECTIONS(String((entry as Record<string, unknown>)[field]))) {
      const service = { ...entry, externalDomainId: domainId, [field]: value };
      const response = await admin.post(`/sites/${siteId}/containers`, {
        hostname: 'web9',
        template: 'nginx:latest',
        services: { bad: service },
      });
      expect(response.status, `${JSON.stringify(value)}: ${response.text}`).toBe(400);
      expect(response.body.error.code).toBe('invalid_service');
      expect(response.body.error.fields['services.bad']).toContain(field);
    }
    expect((await admin.get(`/sites/${siteId}/containers`)).body.data).toEqual([]);
  });

  it('a cluster import adopts no container whose hostname or address does not fit the grammar', async () => {
    const cluster = await startImportCluster('root-password');
    try {
      cluster.addContainer({ vmid: 202, node: 'alpha', config: { hostname: 'evil;}' } });
      cluster.addContainer({
        vmid: 203,
        node: 'alpha',
        config: {
          hostname: 'odd-net',
          net0: 'name=eth0,bridge=vmbr0,hwaddr=BC:24:11:00:02:03,ip=10.0.0.9;}/24',
        },
      });
      const imported = await admin.post(`/sites/${siteId}/nodes/import`, {
        apiUrl: cluster.url,
        username: 'root@pam',
        password: 'root-password',
        tlsFingerprint: cluster.fingerprint,
      });
      expect(imported.status, imported.text).toBe(201);
      const snapshot = await test.client().post('/agents', checkin(siteId));
      expect(snapshot.text).not.toMatch(/;}|evil/);
      const hostnames = (
        snapshot.body.data.site.containers as Array<{ hostname: string; ipv4Address: string | null }>
      ).map((c) => [c.hostname, c.ipv4Address]);
      expect(hostnames).toContainEqual(['odd-net', null]);
      expect(hostnames.map(([hostname]) => hostname)).not.toContain('evil;}');
    } finally {
      await cluster.stop();
    }
  });
});
