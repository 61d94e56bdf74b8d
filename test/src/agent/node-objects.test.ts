// The Node and heartbeat Lease the agent registers.
import { describe, expect, it } from 'vitest';
import { leaseNamespace, renderLease } from './node-objects.js';

describe('renderLease', () => {
  const node = { metadata: { name: 'bed-node-4', uid: 'uid-4' } };

  it('is renewed from its creation, so the node lifecycle controller counts every later renewal', () => {
    const now = new Date('2026-11-29T20:36:35.123Z');
    const lease = renderLease(node, now);

    expect(JSON.parse(JSON.stringify(lease.spec))).toEqual({ holderIdentity: 'bed-node-4', leaseDurationSeconds: 40, renewTime: '2026-11-29T20:36:35.123000Z' });
  });

  it('lives in kube-node-lease, owned by its Node so it goes with it', () => {
    expect(renderLease(node, new Date()).metadata).toEqual({
      name: 'bed-node-4',
      namespace: leaseNamespace,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'bed-node-4', uid: 'uid-4' }],
    });
  });
});
