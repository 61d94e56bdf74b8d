// Act: the reconfigs of a leader handover, as ZooKeeper's superuser through the voters that stay, over TLS whenever
// the members open a secure client port. A lost answer or a config that moved is unsettled, not an error: the next
// observation shows whether the reconfig took effect. Its failures carry the scale trait's reasons for the same ones:
// SuperuserSecretUnusable, TlsSecretUnusable, ReconfigFailed.
import { podOfMember, statefulSetNameOf, superuserPasswordRef } from '@zk-oam/apis';
import { readSecretValue, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import { withAdminSession, type AdminSessionOutcome, type EnsembleAssessment } from '@zk-oam/zookeeper';
import { z } from 'zod';
import type { RollingStep } from '../plan/index.js';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { adminAccess } from './observe.js';

export type ReconfigStep = Extract<RollingStep, { kind: 'HandOverLeadership' | 'RestoreVoter' }>;

const secretRefSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), namespace: z.string().optional() }),
  spec: z.looseObject({ superuserSecretRef: z.object({ name: z.string() }).optional() }),
});

export async function reconfigure(
  deps: Pick<RollingReconcilerDependencies, 'client' | 'connectAdmin'>,
  key: ObjectKey,
  workload: KubeObject,
  ensemble: EnsembleAssessment,
  step: ReconfigStep,
): Promise<AdminSessionOutcome> {
  const member = step.server.id;
  const statefulSet = statefulSetNameOf(workload.metadata.name);
  const targets = ensemble.members.flatMap((candidate) =>
    candidate.voter && candidate.serving && candidate.id !== member && candidate.address !== undefined
      ? [{ pod: podOfMember(statefulSet, candidate.id), myid: candidate.id, ip: candidate.address }]
      : [],
  );
  if (targets.length === 0) return { kind: 'unsettled', note: 'no other voter serves to take the reconfig' };
  const access = await inStep('Act', 'TlsSecretUnusable', key, () => adminAccess(deps.client, workload.metadata.namespace ?? '', workload));
  const password = await inStep('Act', 'SuperuserSecretUnusable', key, () => {
    const ref = superuserPasswordRef(secretRefSchema.parse(workload));
    return readSecretValue(deps.client, ref.secret, ref.key);
  });
  const delta = step.kind === 'HandOverLeadership' ? { joining: [], leaving: [member] } : { joining: [step.server], leaving: [] };
  return inStep('Act', 'ReconfigFailed', key, () =>
    withAdminSession(
      () => deps.connectAdmin(targets, access, password),
      async (admin) => {
        await admin.reconfig(delta, step.fromVersion);
      },
    ),
  );
}
