// Whether a workload admits a znode as its tenant (pure): a znode of the workload's own namespace always; one of
// another namespace only when the workload's spec.znodes.namespaceSelector selects that namespace's labels. The
// workload's owner decides who may use the ensemble, never the znode's.
import { matchesLabelSelector, type LabelSelector } from '@zk-oam/apis';

export type Admission = { readonly admitted: true } | { readonly admitted: false; readonly message: string };

export interface AdmissionInput {
  readonly workload: { readonly namespace: string; readonly name: string; readonly namespaceSelector: LabelSelector | undefined };
  readonly znodeNamespace: string;
  /** The znode's namespace's labels; undefined when the namespace is not (yet) known. */
  readonly namespaceLabels: Readonly<Record<string, string>> | undefined;
}

export function admission({ workload, znodeNamespace, namespaceLabels }: AdmissionInput): Admission {
  if (znodeNamespace === workload.namespace) return { admitted: true };
  const named = `ZookeeperWorkload ${workload.namespace}/${workload.name}`;
  if (workload.namespaceSelector === undefined) {
    return { admitted: false, message: `${named} admits ZookeeperZnodes of its own namespace only: it has no spec.znodes.namespaceSelector` };
  }
  if (namespaceLabels === undefined) return { admitted: false, message: `namespace ${znodeNamespace} is not known to the controller yet` };
  if (matchesLabelSelector(workload.namespaceSelector, namespaceLabels)) return { admitted: true };
  return { admitted: false, message: `${named} does not admit namespace ${znodeNamespace}: its spec.znodes.namespaceSelector does not select that namespace's labels` };
}
