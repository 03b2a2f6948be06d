import { describe, expect, it } from 'vitest';
import { findEndpoint, type Endpoint } from '../src/proxmox/schema/api-schema.ts';
import type { Errors } from '../src/proxmox/schema/check-param.ts';
import { checkRequest } from '../src/proxmox/schema/check-request.ts';
import { checkReturn } from '../src/proxmox/schema/check-return.ts';

const endpoint = (method: string, path: string) => {
  const found = findEndpoint(method, path);
  if (!found?.schema) throw new Error(`no ${method} ${path} in the schema`);
  return found as Endpoint;
};
const create = (fields: Record<string, string>) =>
  checkRequest(endpoint('POST', '/nodes/pve/lxc'), {
    vmid: '101',
    ostemplate: 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst',
    ...fields,
  });
const NOT_IN_SCHEMA = 'property is not defined in schema and the schema does not allow additional properties';

describe('the Proxmox VE API schema check', () => {
  it('matches paths to their templates and methods, literal segments first', () => {
    expect(endpoint('POST', '/nodes/pve/lxc/101/status/start')).toMatchObject({
      template: '/nodes/{node}/lxc/{vmid}/status/start',
      pathParams: { node: 'pve', vmid: '101' },
    });
    expect(endpoint('GET', '/nodes/pve/lxc/101/status/current').template).toBe(
      '/nodes/{node}/lxc/{vmid}/status/current',
    );
    const upid = 'UPID:pve:0002B4A8:0058CC61:6650A1B2:vzcreate:101:root@pam!ci:';
    expect(endpoint('GET', `/nodes/pve/tasks/${encodeURIComponent(upid)}/status`).pathParams.upid).toBe(upid);
    // The path exists but not with this method; and a path the API does not have.
    expect(findEndpoint('POST', '/nodes/pve/lxc/101/status/current')).toEqual({
      template: '/nodes/{node}/lxc/{vmid}/status/current',
    });
    expect(findEndpoint('GET', '/nodes/pve/lxc/101/nope')).toBeUndefined();
  });

  it('refuses unknown names, wrong types, booleans other than 0/1, and missing required ones', () => {
    expect(create({})).toEqual({});
    expect(create({ bogus: '1' })).toEqual({ bogus: NOT_IN_SCHEMA });
    // `net[n]` stands for net0 to net31 (mp, dev: 0 to 255).
    expect(create({ net31: 'name=eth31', net32: 'name=eth32', mp256: '/srv,mp=/srv' })).toEqual({
      net32: NOT_IN_SCHEMA,
      mp256: NOT_IN_SCHEMA,
    });
    expect(create({ cores: 'two', onboot: 'true', unprivileged: '1' })).toEqual({
      cores: "type check ('integer') failed - got 'two'",
      onboot: "type check ('boolean') failed - got 'true'",
    });
    expect(checkRequest(endpoint('POST', '/nodes/pve/lxc'), { ostemplate: 'local:vztmpl/x.tar' })).toEqual({
      vmid: 'property is missing and it is not optional',
    });
    // Path values are parameters too.
    expect(checkRequest(endpoint('POST', '/nodes/pve/lxc/abc/status/start'), {})).toEqual({
      vmid: "type check ('integer') failed - got 'abc'",
    });
  });

  it('checks enums, minimum and maximum, lengths, patterns and named formats', () => {
    expect(create({ arch: 'sparc' })).toEqual({
      arch: "value 'sparc' does not have a value in the enumeration 'amd64, i386, arm64, armhf, riscv32, riscv64'",
    });
    expect(create({ memory: '8', cores: '9000' })).toEqual({
      memory: 'value must have a minimum value of 16',
      cores: 'value must have a maximum value of 8192',
    });
    expect(create({ password: 'abc', description: 'x'.repeat(8193) })).toEqual({
      password: 'value must be at least 5 characters long',
      description: 'value may only be 8192 characters long',
    });
    expect(create({ hostname: 'web_1', storage: '1local' })).toEqual({
      hostname: 'invalid format - value does not look like a valid DNS name',
      storage: "invalid format - storage ID '1local' contains illegal characters",
    });
    const pull = endpoint('POST', '/nodes/pve/storage/local/oci-registry-pull');
    expect(checkRequest(pull, { reference: 'docker.io/library/nginx:1.27' })).toEqual({});
    expect(checkRequest(pull, { reference: 'nginx' })).toEqual({
      reference: 'value does not match the regex pattern',
    });
    expect(checkRequest(pull, {})).toEqual({ reference: 'property is missing and it is not optional' });
  });

  it('checks property strings: net[n], mp[n], dev[n], rootfs and features, keys, default keys and types', () => {
    expect(
      create({
        net0: 'name=eth0,bridge=vmbr0,hwaddr=02:24:11:AA:BB:CC,ip=10.0.0.5/24,gw=10.0.0.1,firewall=1',
        net1: 'name=eth1,bridge=vmbr1,ip=dhcp,ip6=auto,tag=20,mtu=9000',
        mp0: '/srv/share,mp=/data,ro=1',
        mp1: 'local-lvm:16,mp=/var/lib/app,backup=1',
        dev0: '/dev/nvidia0',
        dev1: 'path=/dev/dri/renderD128,gid=44,mode=0660',
        rootfs: 'local-lvm:8,mountoptions=noatime;nodev',
        features: 'nesting=1,keyctl=1,mount=nfs;cifs',
      }),
    ).toEqual({});
    expect(create({ net0: 'bridge=vmbr0,ip=dhcp' })).toEqual({
      net0: 'invalid format - format error\nnet0.name: property is missing and it is not optional',
    });
    expect(create({ net0: 'name=eth0,hwaddr=01:00:5E:00:00:01,ip=10.0.0.5', net1: 'eth1' })).toEqual({
      net0:
        'invalid format - format error\n' +
        'net0.hwaddr: invalid format - value does not look like a valid unicast MAC address\n' +
        'net0.ip: invalid format - value does not look like a valid IPv4 network configuration',
      net1: 'invalid format - value without key, but schema does not define a default key',
    });
    expect(create({ mp0: '/srv/share' })).toEqual({
      mp0: 'invalid format - format error\nmp0.mp: property is missing and it is not optional',
    });
    expect(create({ dev0: 'nvidia0', dev1: '/dev/fuse,mode=777' })).toEqual({
      dev0: 'invalid format - format error\ndev0.path: invalid format - nvidia0 is not a valid device path',
      dev1: 'invalid format - format error\ndev1.mode: value does not match the regex pattern',
    });
    expect(create({ rootfs: 'local-lvm:8,local-lvm:4', features: 'nesting=1,docker=1' })).toEqual({
      rootfs: 'invalid format - duplicate key in comma-separated list property: volume',
      features: `invalid format - format error\nfeatures.docker: ${NOT_IN_SCHEMA}`,
    });
    // Inside a property string a boolean may be spelt out, as parse_property_string allows.
    expect(create({ features: 'nesting=true,fuse=off' })).toEqual({});
  });

  it("checks answers against `returns`, with Perl's view of numbers", () => {
    const errorsOf = (method: string, path: string, data: unknown) => {
      const errors: Errors = {};
      checkReturn(endpoint(method, path).schema.returns, data, 'data', errors);
      return errors;
    };
    // nextid is documented as an integer and sent as a JSON string: both pass, as in Perl.
    expect(errorsOf('GET', '/cluster/nextid', '101')).toEqual({});
    expect(errorsOf('GET', '/cluster/nextid', 'next')).toEqual({
      data: 'type check (\'integer\') failed - got "next"',
    });
    const task = {
      upid: 'UPID:x',
      node: 'pve',
      pid: 1,
      pstart: 2,
      starttime: 3,
      type: 'vzcreate',
      id: '101',
    };
    expect(
      errorsOf('GET', '/nodes/pve/tasks/UPID:x/status', { ...task, user: 'root@pam', status: 'done' }),
    ).toEqual({
      'data.status': "value 'done' does not have a value in the enumeration 'running, stopped'",
    });
    expect(errorsOf('GET', '/nodes/pve/tasks/UPID:x/status', { ...task, status: 'running' })).toEqual({
      'data.user': 'property is missing and it is not optional',
    });
    expect(
      errorsOf('GET', '/nodes/pve/tasks/UPID:x/log', [
        { n: 1, t: 'TASK OK' },
        { n: 'two', t: '' },
      ]),
    ).toEqual({
      'data[1].n': 'type check (\'integer\') failed - got "two"',
    });
    expect(errorsOf('PUT', '/nodes/pve/lxc/101/config', null)).toEqual({});
  });
});
