// Step: act. Carries out the one world-changing action the planner chose, and says what it did for Events and logs.
//
// Each action is safe to repeat: replicas are applied as a value, reconfigs are guarded by the config version they
// were planned from (ZBADVERSION when it moved), and a lost answer only means the next observation decides.
import { adminReach, ordinalOfMyid, statefulSetNameOf, superuserPasswordRef, type ZookeeperWorkload } from '@zk-oam/apis';
import { applyObject, coreResources, isApiError, keyOf, objectPath, readSecretValue, type KubeObject, type ObjectKey, type ReconcileContext } from '@zk-oam/runtime';
import { withAdminSession, type AdminTarget, type EnsembleAdmin, type MemberAccess } from '@zk-oam/zookeeper';
import { memberOf, type ScalePlanInput, type WorldChange } from '../plan/index.js';
import type { ScaleReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { IDENTITY, workloadResource } from './resources.js';
import type { PlannedVerdict } from './verdict.js';

type Deps = Pick<ScaleReconcilerDependencies, 'client' | 'connectAdmin'>;

/** Carries out the verdict's member change; one done as asked is also a Normal Event on the trait. */
export async function act(
  deps: Deps & Pick<ScaleReconcilerDependencies, 'recorder'>,
  trait: KubeObject,
  verdict: PlannedVerdict,
  change: WorldChange,
  log: ReconcileContext['log'],
): Promise<void> {
  const outcome = await carryOut(deps, { key: keyOf(trait), workload: verdict.workload, input: verdict.input }, change);
  if (outcome.kind === 'unsettled') {
    log.warn({ note: outcome.note }, 'step outcome unsettled; observing again');
    return;
  }
  log.info({ note: outcome.note }, 'step carried out');
  await deps.recorder.record(trait, { type: 'Normal', reason: change.kind, action: change.kind, note: outcome.note });
}

/** `acted`: done as asked; `unsettled`: ZooKeeper's answer was lost or the config moved, the next look decides. */
export type ActOutcome = { kind: 'acted'; note: string } | { kind: 'unsettled'; note: string };

export interface ActContext {
  key: ObjectKey;
  workload: ZookeeperWorkload;
  input: ScalePlanInput;
}

export async function carryOut(deps: Deps, context: ActContext, action: WorldChange): Promise<ActOutcome> {
  const { key, workload } = context;
  const name = workload.metadata.name;
  switch (action.kind) {
    case 'RaiseReplicas':
      await inStep('Act', 'ReplicasUpdateFailed', key, () => applyReplicas(deps, workload, action.to));
      return { kind: 'acted', note: `raised ZookeeperWorkload ${name} to ${action.to} replicas: ${memberIn(workload, action.member)} starts as a non-voting member` };
    case 'ReconfigAdd':
      return reconfig(deps, context, action.member, 'add', (admin) => admin.reconfig({ joining: [action.server], leaving: [] }, action.fromVersion));
    case 'ReconfigRemove':
      return reconfig(deps, context, action.member, 'remove', (admin) => admin.reconfig({ joining: [], leaving: [action.member] }, action.fromVersion));
    case 'LowerReplicas':
      return lowerReplicas(deps, context, action);
    case 'DeleteVolume':
      await inStep('Act', 'VolumeDeleteFailed', key, () => deleteVolume(deps, workload, action.pvc));
      return { kind: 'acted', note: `deleted PersistentVolumeClaim ${action.pvc} of removed ${memberIn(workload, action.member)}` };
  }
}

/** "zk-3 (myid 4)": member `myid` of the workload, named by its pod in the workload's StatefulSet. */
function memberIn(workload: ZookeeperWorkload, myid: number): string {
  return memberOf(statefulSetNameOf(workload.metadata.name), myid);
}

/** Server-side apply of spec.replicas alone, as this controller's field; the uid keeps it to this very workload. */
async function applyReplicas(deps: Deps, workload: ZookeeperWorkload, replicas: number): Promise<void> {
  const { name, namespace, uid } = workload.metadata;
  await applyObject(
    deps.client,
    workloadResource,
    { metadata: { name, namespace, ...(uid === undefined ? {} : { uid }) }, spec: { replicas } },
    { fieldManager: IDENTITY.fieldManager },
  );
}

async function reconfig(
  deps: Deps,
  context: ActContext,
  member: number,
  verb: 'add' | 'remove',
  run: (admin: EnsembleAdmin) => Promise<unknown>,
): Promise<ActOutcome> {
  // Removing: not through the leaving member, whose session ends when it leaves.
  const outcome = await withAdmin(deps, context, verb === 'remove' ? [member] : [], 'ReconfigFailed', async (admin) => {
    await run(admin);
  });
  const note = `reconfig ${verb} ${memberIn(context.workload, member)}`;
  return outcome.kind === 'acted' ? { kind: 'acted', note: `${note}: committed` } : { kind: 'unsettled', note: `${note}: ${outcome.note}` };
}

/** Invariant 2: the member left the config; a write proves the remaining quorum commits, then its pod may stop. */
async function lowerReplicas(deps: Deps, context: ActContext, action: Extract<WorldChange, { kind: 'LowerReplicas' }>): Promise<ActOutcome> {
  const name = context.workload.metadata.name;
  const confirmed = await withAdmin(deps, context, [action.member], 'ConfirmWriteFailed', async (admin) => {
    await admin.confirmByWrite();
  });
  if (confirmed.kind === 'unsettled') return { kind: 'unsettled', note: `confirming write before stopping ${memberIn(context.workload, action.member)}: ${confirmed.note}` };
  await inStep('Act', 'ReplicasUpdateFailed', context.key, () => applyReplicas(deps, context.workload, action.to));
  return { kind: 'acted', note: `confirmed the committed config with a write, lowered ZookeeperWorkload ${name} to ${action.to} replicas: ${memberIn(context.workload, action.member)} stops` };
}

/** Opens a superuser session on the committed voters (minus `avoid`), over TLS when they have a secure port, runs `use`, closes it. */
async function withAdmin(
  deps: Deps,
  context: ActContext,
  avoid: readonly number[],
  category: 'ReconfigFailed' | 'ConfirmWriteFailed',
  use: (admin: EnsembleAdmin) => Promise<void>,
): Promise<ActOutcome> {
  const targets = voterTargets(context.input, avoid);
  if (targets.length === 0) return { kind: 'unsettled', note: 'no voter to connect to has a pod IP' };
  const { secret, key } = superuserPasswordRef(context.workload);
  const password = await inStep('Act', 'SuperuserSecretUnusable', context.key, () => readSecretValue(deps.client, secret, key));
  const access = await inStep('Act', 'TlsSecretUnusable', context.key, () => adminAccess(deps, context.workload));
  const outcome = await inStep('Act', category, context.key, () => withAdminSession(() => deps.connectAdmin(targets, access, password), use));
  return outcome.kind === 'done' ? { kind: 'acted', note: '' } : outcome;
}

/** Over TLS whenever the workload has a secure client port, trusting the CA of its member TLS Secret. */
function adminAccess(deps: Deps, workload: ZookeeperWorkload): Promise<MemberAccess> {
  const { name, namespace = '' } = workload.metadata;
  return adminReach(name, namespace, workload.spec.tls, (ref) => readSecretValue(deps.client, ref.secret, ref.key));
}

/** The committed voters' pods with an IP, except `avoid`. */
export function voterTargets(input: ScalePlanInput, avoid: readonly number[]): AdminTarget[] {
  const voters = input.committed.ok ? input.committed.config.servers.map((server) => server.id) : [];
  return voters
    .filter((id) => !avoid.includes(id))
    .flatMap((id) => {
      const pod = input.pods.find((candidate) => candidate.ordinal === ordinalOfMyid(id) && !candidate.deleting);
      return pod?.podIP === undefined ? [] : [{ pod: pod.name, myid: id, ip: pod.podIP }];
    });
}

async function deleteVolume(deps: Deps, workload: ZookeeperWorkload, pvc: string): Promise<void> {
  const path = objectPath(coreResources.persistentVolumeClaim, { namespace: workload.metadata.namespace ?? '', name: pvc });
  try {
    await deps.client.request('DELETE', path);
  } catch (error) {
    if (!isApiError(error, 404)) throw error;
  }
}
