import { describe, expect, it } from 'vitest';
import type { NodeInstances } from '../providers/types.ts';
import type { ContainerRecord } from './containers-repository.ts';
import { statusOf } from './container-status.ts';

const record = (values: Partial<ContainerRecord>) =>
  ({ id: 1, containerId: null, creationJobStatus: null, ...values }) as ContainerRecord;
const unreachable: NodeInstances = { reachable: false, reason: 'fetch failed' };
const running: NodeInstances = {
  reachable: true,
  instances: new Map([['abc', { containerId: 'abc', hostname: 'web1', state: 'running' }]]),
};

describe('container status', () => {
  it('tells a failed or running create without its node: there is no instance to ask about', () => {
    expect(statusOf(record({ creationJobStatus: 'failure' }), unreachable)).toBe('failed');
    expect(statusOf(record({ creationJobStatus: 'cancelled' }), undefined)).toBe('failed');
    expect(statusOf(record({ creationJobStatus: 'running' }), unreachable)).toBe('creating');
  });

  it('is unknown when the node holding a recorded instance, or one without create job, is out of reach', () => {
    expect(statusOf(record({ containerId: 'abc', creationJobStatus: 'success' }), unreachable)).toBe(
      'unknown',
    );
    expect(statusOf(record({}), unreachable)).toBe('unknown');
  });

  it('follows the instance when the node answers', () => {
    expect(statusOf(record({ containerId: 'abc', creationJobStatus: 'success' }), running)).toBe('running');
    expect(statusOf(record({ containerId: 'gone', creationJobStatus: 'success' }), running)).toBe('missing');
    expect(statusOf(record({ containerId: 'gone', creationJobStatus: 'failure' }), running)).toBe('failed');
  });
});
