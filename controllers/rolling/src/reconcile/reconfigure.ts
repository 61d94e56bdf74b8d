// Act: the reconfigs of a leader handover, as ZooKeeper's superuser through the voters that stay. A lost answer or a
// config that moved is unsettled, not an error: the next observation shows whether the reconfig took effect.
import { superuserPasswordRef } from '@zk-oam/apis';
import { readSecretValue, type KubeClient, type KubeObject } from '@zk-oam/runtime';
import { withAdminSession, type AdminSessionOutcome, type EnsembleAssessment } from '@zk-oam/zookeeper';
import { z } from 'zod';
import type { RollingStep } from '../plan/index.js';
import type { RollingReconcilerDependencies } from './dependencies.js';

export type ReconfigStep = Extract<RollingStep, { kind: 'HandOverLeadership' | 'RestoreVoter' }>;

const secretRefSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), namespace: z.string().optional() }),
  spec: z.looseObject({ superuserSecretRef: z.object({ name: z.string() }).optional() }),
});

export async function reconfigure(
  deps: Pick<RollingReconcilerDependencies, 'connectAdmin' | 'clientPort'> & { client: Pick<KubeClient, 'request'> },
  workload: KubeObject,
  ensemble: EnsembleAssessment,
  step: ReconfigStep,
): Promise<AdminSessionOutcome> {
  const member = step.server.id;
  const connectString = ensemble.members
    .filter((candidate) => candidate.voter && candidate.serving && candidate.id !== member && candidate.address !== undefined)
    .map((candidate) => `${candidate.address}:${deps.clientPort}`)
    .join(',');
  if (connectString === '') return { kind: 'unsettled', note: 'no other voter serves to take the reconfig' };
  const { secret, key } = superuserPasswordRef(secretRefSchema.parse(workload));
  const password = await readSecretValue(deps.client, secret, key);
  const delta = step.kind === 'HandOverLeadership' ? { joining: [], leaving: [member] } : { joining: [step.server], leaving: [] };
  return withAdminSession(
    () => deps.connectAdmin(connectString, password),
    async (admin) => {
      await admin.reconfig(delta, step.fromVersion);
    },
  );
}
