// What the znode reconcile needs from the outside world, passed in by main.ts (tests can pass fakes).
import type { ZnodeReason, znodeStatusSchema } from '@zk-oam/apis';
import type { EventRecorder, KubeClient, Listers, RequeuePacer, WrittenStatuses } from '@zk-oam/runtime';
import type { TenantAdminConnector } from '@zk-oam/zookeeper';

/**
 * `traits` are the ZookeeperZnodes (the reconciled kind, and the other claims on a workload's paths), `pods` the
 * member pods (MEMBER_SELECTOR), `namespaces` read by their labels: whom a workload's spec.znodes.namespaceSelector admits.
 */
export type ZnodeCaches = Listers<'traits' | 'workloads' | 'pods' | 'namespaces'>;

export interface ZnodeTiming {
  /** Between looks at a znode that is Ready: is the path still there, with its ACL? */
  readonly idleMs: number;
  /** Between looks while waiting: for the workload, its members, or their restart onto a new user. */
  readonly waitMs: number;
  /** How long a deleted znode waits for a missing workload before its finalizer goes anyway. */
  readonly releaseAfterMs: number;
}

export interface ZnodeReconcilerDependencies {
  readonly caches: ZnodeCaches;
  readonly client: KubeClient;
  readonly recorder: Pick<EventRecorder<ZnodeReason>, 'record'>;
  /** The statuses this process wrote that the cache may not show yet: whether a path was announced is read there. */
  readonly statuses: WrittenStatuses<typeof znodeStatusSchema>;
  /** The superuser's session for tenant paths, over TLS whenever the members open a secure port. */
  readonly connectTenant: TenantAdminConnector;
  readonly pacer: Pick<RequeuePacer, 'delayMs' | 'release'>;
  readonly timing: ZnodeTiming;
  readonly now: () => Date;
  /** A fresh password for a tenant's SASL user. */
  readonly newPassword: () => string;
}
