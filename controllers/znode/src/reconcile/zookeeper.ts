// The superuser's session on the workload's members for a tenant step: the password from the workload's superuser
// Secret, on the ready members, over TLS whenever they open a secure port (trusting the workload's CA), closed after
// the step.
import { adminReach, memberName, superuserPasswordRef, type MemberReach, type ZookeeperWorkload } from '@zk-oam/apis';
import { readSecretValue, type ObjectKey } from '@zk-oam/runtime';
import type { TenantAdmin } from '@zk-oam/zookeeper';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import { inStep, inZooKeeperStep, type ReconcileStep } from './errors.js';
import type { MemberView } from './observe.js';

type Deps = Pick<ZnodeReconcilerDependencies, 'client' | 'connectTenant'>;

/** How the members are reached: over TLS with the workload's CA when they open a secure port. */
export function memberAccess(deps: Pick<Deps, 'client'>, key: ObjectKey, step: ReconcileStep, workload: ZookeeperWorkload): Promise<MemberReach> {
  const { name, namespace = '' } = workload.metadata;
  return inStep(step, 'TlsSecretUnusable', key, () => adminReach(name, namespace, workload.spec.tls, (ref) => readSecretValue(deps.client, ref.secret, ref.key)));
}

export async function onZooKeeper<T>(
  deps: Deps,
  key: ObjectKey,
  step: ReconcileStep,
  target: { readonly workload: ZookeeperWorkload; readonly members: readonly MemberView[]; readonly access: MemberReach },
  use: (admin: TenantAdmin) => Promise<T>,
): Promise<T> {
  const { secret, key: passwordKey } = superuserPasswordRef(target.workload);
  const password = await inStep(step, 'SuperuserSecretUnusable', key, () => readSecretValue(deps.client, secret, passwordKey));
  const targets = target.members.flatMap((member) => (member.ip === undefined || !member.ready ? [] : [{ pod: member.pod, myid: member.myid, ip: member.ip }]));
  return inZooKeeperStep(step, key, async () => {
    if (targets.length === 0) throw new Error(`no member of ZookeeperWorkload ${target.workload.metadata.name} is ready (${target.members.map(memberName).join(', ')})`);
    const admin = await deps.connectTenant(targets, target.access, password);
    try {
      return await use(admin);
    } finally {
      admin.close();
    }
  });
}
