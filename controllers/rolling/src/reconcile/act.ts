// Step: act. Carries out what the verdict asks while this roll holds the lock: a leader handover's reconfig
// (reconfigure.ts), or the deletion of the next pods, each with its uid as a precondition, so a stale plan never
// deletes the replacement the StatefulSet controller created under the same name.
import { coreResources, isApiError, objectPath, type KubeClient, type KubeObject, type ObjectKey, type ReconcileContext } from '@zk-oam/runtime';
import type { PodToDelete } from '../plan/index.js';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { reconfigure } from './reconfigure.js';
import { podsToDelete, reconfigToRun, type RollingVerdict } from './verdict.js';

/** Returns the pods it deleted, for the announcements. */
export async function act(
  deps: RollingReconcilerDependencies,
  key: ObjectKey,
  verdict: RollingVerdict,
  workload: KubeObject | undefined,
  log: ReconcileContext['log'],
): Promise<PodToDelete[]> {
  const reconfig = reconfigToRun(verdict);
  if (reconfig !== undefined && workload !== undefined && verdict.kind === 'Planned') {
    const outcome = await reconfigure(deps, key, workload, verdict.ensemble, reconfig);
    const note = outcome.kind === 'unsettled' ? outcome.note : undefined;
    log.info({ step: reconfig.kind, member: reconfig.server.id, outcome: outcome.kind, note }, 'leader handover reconfig');
    return [];
  }
  const pods = podsToDelete(verdict);
  if (pods.length === 0) return [];
  const deleted = await inStep('Act', 'PodDeleteFailed', key, () => deletePods(deps.client, key.namespace, pods));
  log.info({ pods: deleted.map((pod) => pod.name), leader: deleted.some((pod) => pod.leader) }, 'deleted pods to restart them');
  return deleted;
}

/** Returns the pods this call deleted; one already gone (404) or already replaced (409, uid differs) is skipped. */
async function deletePods(client: Pick<KubeClient, 'request'>, namespace: string, pods: readonly PodToDelete[]): Promise<PodToDelete[]> {
  const deleted: PodToDelete[] = [];
  for (const pod of pods) {
    try {
      await client.request('DELETE', objectPath(coreResources.pod, { namespace, name: pod.name }), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: pod.uid } },
      });
      deleted.push(pod);
    } catch (error) {
      if (!isApiError(error, 404) && !isApiError(error, 409)) throw error;
    }
  }
  return deleted;
}
