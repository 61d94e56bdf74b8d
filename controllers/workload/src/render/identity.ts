// Names, labels and owner reference of every object rendered for a workload, from the contract in @zk-oam/apis.
import type { V1ObjectMeta, V1OwnerReference } from '@kubernetes/client-node';
import {
  derivedNames,
  memberSelectorLabels,
  statefulSetNameOf,
  superuserSecretName,
  tlsCaSecretName,
  workloadLabels as labelsOf,
  ZOOKEEPER_WORKLOAD,
  type ZookeeperWorkload,
} from '@zk-oam/apis';

export class MissingIdentityError extends Error {
  override readonly name = 'MissingIdentityError';
  constructor(readonly field: 'metadata.uid' | 'metadata.namespace', workload: string) {
    super(`ZookeeperWorkload ${workload} has no ${field}: render only objects read from the API`);
  }
}

/** Names of the objects rendered for a workload called `name`. */
export interface WorkloadNames {
  workload: string;
  namespace: string;
  configMap: string;
  headlessService: string;
  clientService: string;
  statefulSet: string;
  podDisruptionBudget: string;
  superuserSecret: string;
  /** The member certificate, its key and the CA (kept by the controller). */
  tlsSecret: string;
  tlsCaSecret: string;
  /** The members' JAAS file, rendered from the users Secret (spec.authentication.sasl). */
  saslSecret: string;
  serviceMonitor: string;
  prometheusRule: string;
}

export function workloadNames(workload: ZookeeperWorkload): WorkloadNames {
  const name = workload.metadata.name;
  const namespace = workload.metadata.namespace;
  if (namespace === undefined) {
    throw new MissingIdentityError('metadata.namespace', name);
  }
  const derived = derivedNames(name);
  return {
    workload: name,
    namespace,
    configMap: derived.configMap,
    headlessService: derived.headlessService,
    clientService: derived.clientService,
    statefulSet: statefulSetNameOf(name),
    podDisruptionBudget: derived.podDisruptionBudget,
    superuserSecret: superuserSecretName(workload),
    tlsSecret: derived.tlsSecret,
    tlsCaSecret: tlsCaSecretName(workload),
    saslSecret: derived.saslSecret,
    serviceMonitor: derived.serviceMonitor,
    prometheusRule: derived.prometheusRule,
  };
}

/** The labels that select a workload's pods; stable for the life of the StatefulSet (its selector is immutable). */
export function selectorLabels(workload: ZookeeperWorkload): Record<string, string> {
  return memberSelectorLabels(workload.metadata.name);
}

export function workloadLabels(workload: ZookeeperWorkload): Record<string, string> {
  return labelsOf(workload.metadata.name);
}

/** The workload as controller owner: its children are garbage-collected with it. */
export function controllerOwnerReference(workload: ZookeeperWorkload): V1OwnerReference {
  const uid = workload.metadata.uid;
  if (uid === undefined) {
    throw new MissingIdentityError('metadata.uid', workload.metadata.name);
  }
  return {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: ZOOKEEPER_WORKLOAD.kind,
    name: workload.metadata.name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Metadata of a namespaced child called `name`: the workload's namespace, labels and owner reference. */
export function childMetadata(workload: ZookeeperWorkload, name: string): V1ObjectMeta & { name: string; namespace: string } {
  return {
    name,
    namespace: workloadNames(workload).namespace,
    labels: workloadLabels(workload),
    ownerReferences: [controllerOwnerReference(workload)],
  };
}
