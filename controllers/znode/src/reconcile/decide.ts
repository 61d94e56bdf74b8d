// Step: decide. From the caches alone (pure): whether the workload can serve the znode's path, whether it admits the
// znode's namespace, whether the znode's principal fits how it authenticates clients, and whether the path is this
// znode's to have.
import type { ZookeeperZnode } from '@zk-oam/apis';
import { conflictingClaim, tenantPrincipal } from '../plan/index.js';
import type { ZnodeCaches } from './dependencies.js';
import { claimOf, observeWorkload, otherClaims, type WorkloadView } from './observe.js';
import type { WaitReason, ZnodeVerdict } from './verdict.js';

const WAIT_REASONS = { missing: 'WorkloadNotFound', deleting: 'WorkloadDeleting', invalid: 'WorkloadInvalid' } as const satisfies Record<Exclude<WorkloadView['presence'], 'present'>, WaitReason>;

export function decide(caches: ZnodeCaches, znode: ZookeeperZnode): ZnodeVerdict {
  const view = observeWorkload(caches, znode);
  if (view.presence !== 'present') return { kind: 'Waiting', reason: WAIT_REASONS[view.presence], message: view.message };
  if (!view.admission.admitted) return { kind: 'Refused', reason: 'WorkloadNotShared', message: `${view.admission.message}; nothing is done for this znode` };
  const principal = tenantPrincipal({ name: view.workload.metadata.name, authentication: view.workload.spec.authentication }, znode.spec.principal);
  if (principal.kind === 'mismatch') return { kind: 'Refused', reason: 'PrincipalMismatch', message: `${principal.message}; nothing is done for this znode` };
  const own = claimOf(znode);
  const claim = conflictingClaim(own, otherClaims(caches, znode, view.workload));
  if (claim !== undefined) {
    const message = `path ${own.path} overlaps ${claim.path}, claimed first by ZookeeperZnode ${claim.name}; nothing is done for this one (spec.path is immutable: create another with a free path)`;
    return { kind: 'Conflict', claim, message };
  }
  const serving = view.members.filter((member) => member.ready && member.ip !== undefined);
  if (serving.length === 0) {
    return { kind: 'Waiting', reason: 'WorkloadNotServing', message: `no member pod of ZookeeperWorkload ${view.workload.metadata.name} is ready yet` };
  }
  return { kind: 'Serve', path: own.path, workload: view.workload, members: view.members, principal };
}
