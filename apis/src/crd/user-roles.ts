// The ClusterRoles people are given for the ZooKeeper kinds. They carry Kubernetes' aggregation labels, so whoever
// holds the built-in `view`, `edit` or `admin` role in a namespace gets them there too, as for Deployments: a team that
// may edit its namespace may run its ensembles, scale and restart them (kubectl, or the console acting as them).
import { ZOOKEEPER_KINDS, type CustomResourceKind } from './kinds.js';

export interface ClusterRole {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole';
  metadata: { name: string; labels: Record<string, string> };
  rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
}

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];

/** Each kind's resource, and its scale subresource where it has one (`kubectl scale zks`). */
function resourcesOf(kind: CustomResourceKind): string[] {
  return [kind.info.plural, ...(kind.scale === undefined ? [] : [`${kind.info.plural}/scale`])];
}

function rulesFor(verbs: string[]): ClusterRole['rules'] {
  return ZOOKEEPER_KINDS.map((kind) => ({ apiGroups: [kind.info.group], resources: resourcesOf(kind), verbs }));
}

function role(name: string, aggregateTo: string[], rules: ClusterRole['rules']): ClusterRole {
  const labels = Object.fromEntries(aggregateTo.map((target) => [`rbac.authorization.k8s.io/aggregate-to-${target}`, 'true']));
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, labels: { 'app.kubernetes.io/part-of': 'zk-oam', ...labels } }, rules };
}

/**
 * `<prefix>-view` (read, in `view` and so in `edit` and `admin`) and `<prefix>-edit` (write, in `edit` and `admin`):
 * `zk-oam` in deploy/, the release's name in the chart, so that a release never claims objects it did not create.
 */
export function userClusterRoles(prefix: string): ClusterRole[] {
  return [role(`${prefix}-view`, ['view'], rulesFor(READ)), role(`${prefix}-edit`, ['edit', 'admin'], rulesFor([...READ, ...WRITE]))];
}
