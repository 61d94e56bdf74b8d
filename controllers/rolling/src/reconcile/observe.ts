// Observe: the StatefulSet and its pods read fresh from the apiserver, then ZooKeeper asked by pod IP right before
// the plan, so the leader and each member's sync state are those of this moment. A TLS-only ensemble is asked over
// TLS on its secure port, trusting the CA in the workload's member TLS Secret.
import { adminReach, memberReach, memberSelectorOf, myidOfOrdinal, statefulSetNameOf } from '@zk-oam/apis';
import { assessEnsemble, type CommittedConfig, type EnsembleAssessment, type EnsembleObservation, type MemberAccess } from '@zk-oam/zookeeper';
import { coreResources, isApiError, objectPath, collectionPath, readSecretValue, type KubeClient, type KubeObject } from '@zk-oam/runtime';
import type { PodView, RollingPlanInput, StatefulSetView } from '../plan/index.js';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { clientTlsOf } from './tls-only.js';
import { observedPod, statefulSetView, zooTimingOf, type ObservedPod } from './views.js';
import { z } from 'zod';

export type RollObservation =
  | { readonly kind: 'NoStatefulSet'; readonly name: string }
  | {
      readonly kind: 'Observed';
      readonly statefulSet: StatefulSetView;
      readonly pods: PodView[];
      readonly ensemble: EnsembleAssessment;
      readonly committed: CommittedConfig | undefined;
      readonly zooConfig: RollingPlanInput['zooConfig'];
    };

const listSchema = z.object({ items: z.array(z.unknown()) });

export async function observeRoll(
  deps: Pick<RollingReconcilerDependencies, 'client' | 'observe'>,
  namespace: string,
  workloadObject: KubeObject,
): Promise<RollObservation> {
  const workload = workloadObject.metadata.name;
  const statefulSetName = statefulSetNameOf(workload);
  const raw = await readStatefulSet(deps.client, namespace, statefulSetName);
  if (raw === undefined) return { kind: 'NoStatefulSet', name: statefulSetName };
  const statefulSet = statefulSetView(raw, statefulSetName);
  const pods = await listMemberPods(deps.client, namespace, workload, statefulSet.name);
  const access = await memberAccess(deps.client, namespace, workloadObject);
  const observation = await deps.observe(
    pods.map((pod) => ({ pod: pod.view.name, myid: myidOfOrdinal(pod.view.ordinal), ip: pod.ip })),
    access,
  );
  const committed = observation.committed.ok ? observation.committed.config : undefined;
  return { kind: 'Observed', statefulSet, pods: pods.map((pod) => pod.view), ensemble: assess(observation), committed, zooConfig: zooTimingOf(workloadObject) };
}

/**
 * The health model over the committed config. When no member could give the committed config, who votes is unknown:
 * the ensemble counts as unhealthy, so the roll waits rather than guess.
 */
export function assess(observation: EnsembleObservation): EnsembleAssessment {
  const observations = observation.members.map((member) => member.observation);
  if (observation.committed.ok) return assessEnsemble(observation.committed.config, observations);
  const unknown = assessEnsemble({ servers: [], version: undefined }, observations);
  return { ...unknown, health: { ok: false, reason: `the committed configuration could not be read: ${observation.committed.error.message}` } };
}

/** Where members are asked: the plain client port, or for a TLS-only workload the secure one with the CA of its member TLS Secret. */
export function memberAccess(client: Pick<KubeClient, 'request'>, namespace: string, workload: KubeObject): Promise<MemberAccess> {
  return memberReach(workload.metadata.name, namespace, { client: clientTlsOf(workload) }, (ref) => readSecretValue(client, ref.secret, ref.key));
}

/** Where the superuser's session goes: over TLS whenever the workload has a secure client port. */
export function adminAccess(client: Pick<KubeClient, 'request'>, namespace: string, workload: KubeObject): Promise<MemberAccess> {
  return adminReach(workload.metadata.name, namespace, { client: clientTlsOf(workload) }, (ref) => readSecretValue(client, ref.secret, ref.key));
}

async function readStatefulSet(client: Pick<KubeClient, 'request'>, namespace: string, name: string): Promise<unknown> {
  try {
    return await client.request('GET', objectPath(coreResources.statefulSet, { namespace, name }));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

async function listMemberPods(client: Pick<KubeClient, 'request'>, namespace: string, workload: string, statefulSet: string): Promise<ObservedPod[]> {
  const list = listSchema.parse(
    await client.request('GET', collectionPath(coreResources.pod, namespace), { query: { labelSelector: memberSelectorOf(workload) } }),
  );
  return list.items.flatMap((item) => observedPod(item, statefulSet) ?? []);
}
