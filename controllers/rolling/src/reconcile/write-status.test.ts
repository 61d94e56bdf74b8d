// The status write carries the resourceVersion the trait was read at, and a refusal for staleness is an answer, not a failure.
import { KubeApiError } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { writeStatusIfCurrent } from './write-status.js';

const key = { namespace: 'ns', name: 'roll' };

function recordingClient(answer: () => Promise<unknown>) {
  const bodies: unknown[] = [];
  const client = {
    request: (_verb: string, _path: string, options?: { body?: unknown }): Promise<unknown> => {
      bodies.push(options?.body);
      return answer();
    },
  };
  return { client, bodies };
}

describe('writeStatusIfCurrent', () => {
  it('applies the status under the resourceVersion it was derived from', async () => {
    const { client, bodies } = recordingClient(() => Promise.resolve({}));
    await expect(writeStatusIfCurrent(client, key, { phase: 'Rolling' }, '42')).resolves.toBe('written');
    expect(bodies).toEqual([expect.objectContaining({ metadata: { name: 'roll', namespace: 'ns', resourceVersion: '42' }, status: { phase: 'Rolling' } })]);
  });

  it('says stale when the apiserver refuses the resourceVersion (409)', async () => {
    const { client } = recordingClient(() => Promise.reject(new KubeApiError(409, 'Conflict', 'PATCH', '/status', 'the object has been modified')));
    await expect(writeStatusIfCurrent(client, key, { phase: 'Rolling' }, '41')).resolves.toBe('stale');
  });

  it('lets any other failure through', async () => {
    const { client } = recordingClient(() => Promise.reject(new KubeApiError(500, 'InternalError', 'PATCH', '/status', 'etcd timeout')));
    await expect(writeStatusIfCurrent(client, key, { phase: 'Rolling' }, '41')).rejects.toThrow('etcd timeout');
  });
});
