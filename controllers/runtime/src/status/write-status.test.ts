// The status is applied on /status, whole, by the controller's field manager, and only when it changed.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { namespacedResource } from '../kube/resource.js';
import { writeStatusIfChanged } from './write-status.js';

const target = {
  resource: namespacedResource({ group: 'example.dev', version: 'v1', plural: 'widgets', kind: 'Widget' }),
  schema: z.object({ phase: z.string().optional() }),
  fieldManager: 'widgets',
};
const key = { namespace: 'ns', name: 'w' };

function recordingClient() {
  const writes: { path: string; body: unknown; query: unknown }[] = [];
  const client = {
    request: (_verb: string, path: string, options?: { body?: unknown; query?: unknown }): Promise<unknown> => {
      writes.push({ path, body: options?.body, query: options?.query });
      return Promise.resolve({});
    },
  };
  return { client, writes };
}

describe('writeStatusIfChanged', () => {
  it('applies a changed status on the status subresource under the field manager', async () => {
    const { client, writes } = recordingClient();
    await expect(writeStatusIfChanged(client, target, key, { phase: 'Idle' }, { phase: 'Running' })).resolves.toBe(true);
    expect(writes).toEqual([
      {
        path: '/apis/example.dev/v1/namespaces/ns/widgets/w/status',
        body: { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns' }, status: { phase: 'Running' } },
        query: { fieldManager: 'widgets', force: true },
      },
    ]);
  });

  it('writes nothing when the status is the stored one', async () => {
    const { client, writes } = recordingClient();
    await expect(writeStatusIfChanged(client, target, key, { phase: 'Running' }, { phase: 'Running' })).resolves.toBe(false);
    expect(writes).toEqual([]);
  });
});
