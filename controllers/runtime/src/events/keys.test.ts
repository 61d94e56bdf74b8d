// eventsToKeys: every event becomes the key of the workload it is about.
import { createEvent } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import type { ObjectKey } from '../kube/object.js';
import { eventsToKeys } from './keys.js';

describe('eventsToKeys', () => {
  it('enqueues the namespace and name of the event subject', async () => {
    const keys: ObjectKey[] = [];
    const handler = eventsToKeys((key) => keys.push(key));
    const subject = { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', namespace: 'prod', name: 'zk' };
    await handler(createEvent({ type: 'ScaleBlocked', source: 'zk-scale', subject, data: { reason: 'QuorumAtRisk', message: 'm' } }));
    expect(keys).toEqual([{ namespace: 'prod', name: 'zk' }]);
  });
});
