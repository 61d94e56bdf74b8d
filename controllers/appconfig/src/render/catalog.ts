// What the cluster serves and which kinds are registered as OAM workloads, traits and scopes, and the lookups rendering
// needs; pure. A definition is found by the name of its kind's CRD (`<plural>.<group>`), as oam-kubernetes-runtime did.
import type { ScopeDefinition, TraitDefinition, WorkloadDefinition } from '@zk-oam/apis';
import { apiVersionOf, resourceName, type ResourceType } from '@zk-oam/runtime';

export interface Catalog {
  /** Kinds the apiserver serves, at least for every apiVersion the ApplicationConfiguration and its Components use. */
  readonly resources: readonly ResourceType[];
  readonly workloadDefinitions: readonly WorkloadDefinition[];
  readonly traitDefinitions: readonly TraitDefinition[];
  readonly scopeDefinitions: readonly ScopeDefinition[];
}

export function findResource(catalog: Catalog, apiVersion: string, kind: string): ResourceType | undefined {
  return catalog.resources.find((resource) => apiVersionOf(resource) === apiVersion && resource.kind === kind);
}

/** The definition's name: the CRD name of the kind it registers. */
export function definitionName(resource: ResourceType): string {
  return resourceName(resource);
}

export function findWorkloadDefinition(catalog: Catalog, resource: ResourceType): WorkloadDefinition | undefined {
  const name = definitionName(resource);
  return catalog.workloadDefinitions.find((definition) => definition.metadata.name === name);
}

export function findTraitDefinition(catalog: Catalog, resource: ResourceType): TraitDefinition | undefined {
  const name = definitionName(resource);
  return catalog.traitDefinitions.find((definition) => definition.metadata.name === name);
}

export function findScopeDefinition(catalog: Pick<Catalog, 'scopeDefinitions'>, resource: ResourceType): ScopeDefinition | undefined {
  const name = definitionName(resource);
  return catalog.scopeDefinitions.find((definition) => definition.metadata.name === name);
}

/**
 * Whether a trait may be attached to a workload of `workload`'s kind. Entries of `appliesToWorkloads` are `*`, a
 * WorkloadDefinition name (`zookeeperworkloads.workload.zookeeper.zkoam.dev`) or every kind of a group (`*.workload.zookeeper.zkoam.dev`);
 * no entries means any workload.
 */
export function traitApplies(trait: TraitDefinition, workload: ResourceType): boolean {
  const entries = trait.spec.appliesToWorkloads ?? [];
  if (entries.length === 0) return true;
  const name = definitionName(workload);
  return entries.some((entry) => entry === '*' || entry === name || (entry.startsWith('*.') && entry.slice(2) === workload.group));
}
