// Fixtures for the rendering tests: a ZooKeeper Component, an ApplicationConfiguration with both traits, the catalog
// (with a scope kind, v0.3.3's HealthScope).
import {
  ZOOKEEPER_ROLLING,
  ZOOKEEPER_SCALE,
  ZOOKEEPER_WORKLOAD,
  type ApplicationConfiguration,
  type Component,
  type KindInfo,
  type ScopeDefinition,
  type TraitDefinition,
  type WorkloadDefinition,
} from '@zk-oam/apis';
import type { ResourceType } from '@zk-oam/runtime';
import type { Catalog } from './catalog.js';

/** Our kinds as discovery lists them, and as a definition names them (`<plural>.<group>`), from the contract. */
function discovered(info: KindInfo): ResourceType {
  return { group: info.group, version: info.version, plural: info.plural, kind: info.kind, namespaced: true };
}
const definitionName = (info: KindInfo): string => `${info.plural}.${info.group}`;

export const workloadKind = discovered(ZOOKEEPER_WORKLOAD);
export const scaleKind = discovered(ZOOKEEPER_SCALE);
export const rollingKind = discovered(ZOOKEEPER_ROLLING);

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
  workloadDefinitions: [workloadDefinition(definitionName(ZOOKEEPER_WORKLOAD))],
  traitDefinitions: [
    traitDefinition(definitionName(ZOOKEEPER_SCALE), [definitionName(ZOOKEEPER_WORKLOAD)]),
    traitDefinition(definitionName(ZOOKEEPER_ROLLING), [`*.${ZOOKEEPER_WORKLOAD.group}`]),
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
      apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
      kind: ZOOKEEPER_WORKLOAD.kind,
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
          { trait: { apiVersion: ZOOKEEPER_SCALE.apiVersion, kind: ZOOKEEPER_SCALE.kind, spec: { replicas: 5 } } },
          { trait: { apiVersion: ZOOKEEPER_ROLLING.apiVersion, kind: ZOOKEEPER_ROLLING.kind, metadata: { name: 'orders-roll' }, spec: { maxUnavailable: 1 } } },
        ],
      },
    ],
  },
};
