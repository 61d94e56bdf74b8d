// Fixtures for the rendering tests: a ZooKeeper Component, an ApplicationConfiguration with both traits, the catalog
// (with a scope kind, v0.3.3's HealthScope).
import type { ApplicationConfiguration, Component, ScopeDefinition, TraitDefinition, WorkloadDefinition } from '@zk-oam/apis';
import type { ResourceType } from '@zk-oam/runtime';
import type { Catalog } from './catalog.js';

export const workloadKind: ResourceType = { group: 'workload.zookeeper.zkoam.dev', version: 'v1alpha1', plural: 'zookeeperworkloads', kind: 'ZookeeperWorkload', namespaced: true };
export const scaleKind: ResourceType = { group: 'scale.zookeeper.zkoam.dev', version: 'v1alpha1', plural: 'zookeeperscales', kind: 'ZookeeperScale', namespaced: true };
export const rollingKind: ResourceType = { group: 'rolling.zookeeper.zkoam.dev', version: 'v1alpha1', plural: 'zookeeperrollings', kind: 'ZookeeperRolling', namespaced: true };

export const healthScopeKind: ResourceType = { group: 'core.oam.dev', version: 'v1alpha2', plural: 'healthscopes', kind: 'HealthScope', namespaced: true };

export function scopeDefinition(name: string, workloadRefsPath?: string): ScopeDefinition {
  return {
    apiVersion: 'core.oam.dev/v1alpha2',
    kind: 'ScopeDefinition',
    metadata: { name },
    spec: { definitionRef: { name }, allowComponentOverlap: true, ...(workloadRefsPath === undefined ? {} : { workloadRefsPath }) },
  };
}

export function workloadDefinition(name: string): WorkloadDefinition {
  return { apiVersion: 'core.oam.dev/v1alpha2', kind: 'WorkloadDefinition', metadata: { name }, spec: { definitionRef: { name } } };
}

export function traitDefinition(name: string, appliesToWorkloads?: string[], workloadRefPath = 'spec.workloadRef'): TraitDefinition {
  return {
    apiVersion: 'core.oam.dev/v1alpha2',
    kind: 'TraitDefinition',
    metadata: { name },
    spec: { definitionRef: { name }, workloadRefPath, ...(appliesToWorkloads === undefined ? {} : { appliesToWorkloads }) },
  };
}

export const catalog: Catalog = {
  resources: [workloadKind, scaleKind, rollingKind, healthScopeKind],
  workloadDefinitions: [workloadDefinition('zookeeperworkloads.workload.zookeeper.zkoam.dev')],
  traitDefinitions: [
    traitDefinition('zookeeperscales.scale.zookeeper.zkoam.dev', ['zookeeperworkloads.workload.zookeeper.zkoam.dev']),
    traitDefinition('zookeeperrollings.rolling.zookeeper.zkoam.dev', ['*.workload.zookeeper.zkoam.dev']),
  ],
  scopeDefinitions: [scopeDefinition('healthscopes.core.oam.dev', 'spec.workloadRefs')],
};

export const component: Component = {
  apiVersion: 'core.oam.dev/v1alpha2',
  kind: 'Component',
  metadata: { name: 'zk', namespace: 'apps', uid: 'uid-zk', generation: 2 },
  status: { observedGeneration: 2, latestRevision: { name: 'zk-v2', revision: 2 } },
  spec: {
    workload: {
      apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1',
      kind: 'ZookeeperWorkload',
      metadata: { labels: { team: 'data' } },
      spec: { storage: { size: '1Gi' } },
    },
    parameters: [
      { name: 'tickTime', fieldPaths: ['spec.config.tickTime'] },
      { name: 'instance', fieldPaths: ['metadata.name'], required: true },
    ],
  },
};

export const appConfig: ApplicationConfiguration = {
  apiVersion: 'core.oam.dev/v1alpha2',
  kind: 'ApplicationConfiguration',
  metadata: { name: 'orders', namespace: 'apps', uid: 'uid-orders', generation: 1 },
  spec: {
    components: [
      {
        componentName: 'zk',
        parameterValues: [
          { name: 'instance', value: 'orders-zk' },
          { name: 'tickTime', value: 2500 },
        ],
        traits: [
          { trait: { apiVersion: 'scale.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperScale', spec: { replicas: 5 } } },
          { trait: { apiVersion: 'rolling.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperRolling', metadata: { name: 'orders-roll' }, spec: { maxUnavailable: 1 } } },
        ],
      },
    ],
  },
};
