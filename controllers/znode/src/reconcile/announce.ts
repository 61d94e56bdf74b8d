// The Events of a reconcile (pure, then recorded): each thing done to the path, the credentials and the discovery
// objects is a Normal Event on the znode, and Ready newly False for a reason that needs a person one Warning.
import type { ZnodeReason, ZookeeperZnodeStatus } from '@zk-oam/apis';
import { warningOnNews, type EventDetails, type KubeObject } from '@zk-oam/runtime';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import type { Finding } from './verdict.js';

/** Ready newly False for these reasons is a Warning, with the action that could not go on. */
const READY_WARNINGS = {
  InvalidSpec: 'Validate',
  WorkloadNotFound: 'FindWorkload',
  WorkloadInvalid: 'ReadWorkload',
  PathConflict: 'ClaimPath',
} as const satisfies Partial<Record<ZnodeReason, string>>;

export function eventsOf(previous: ZookeeperZnodeStatus | undefined, next: ZookeeperZnodeStatus, finding: Finding): EventDetails<ZnodeReason>[] {
  const warning = warningOnNews(previous?.conditions, next.conditions, 'Ready', READY_WARNINGS);
  const done: EventDetails<ZnodeReason>[] = [];
  if (finding.kind === 'Served') {
    const acl = finding.principal === undefined ? 'open to anyone (the workload does not authenticate clients)' : `for ${finding.principal} alone`;
    if (finding.credentialsCreated && finding.principal !== undefined) {
      done.push({ type: 'Normal', reason: 'CredentialsCreated', action: 'CreateCredentials', note: `made the SASL user of ${finding.principal}, in the workload's users Secret and the discovery Secret` });
    }
    if (finding.discoveryChanged) done.push({ type: 'Normal', reason: 'DiscoveryPublished', action: 'Publish', note: `wrote the discovery ConfigMap and Secret: ${finding.connection.connectString}` });
    if (finding.created) done.push({ type: 'Normal', reason: 'PathCreated', action: 'CreatePath', note: `created ${finding.path}, ${acl}` });
    if (finding.aclChanged) done.push({ type: 'Normal', reason: 'AclRestored', action: 'SetAcl', note: `set the ACL of ${finding.path} back: ${acl}` });
  }
  return warning === undefined ? done : [...done, warning];
}

export async function announce(deps: Pick<ZnodeReconcilerDependencies, 'recorder'>, raw: KubeObject, events: readonly EventDetails<ZnodeReason>[]): Promise<void> {
  for (const event of events) await deps.recorder.record(raw, event);
}
