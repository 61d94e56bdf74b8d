// Which earlier workloads a revisionEnabled component keeps in status.historyWorkloads, and that they are never pruned.
import { describe, expect, it } from 'vitest';
import type { RenderedComponent } from '../render/outcome.js';
import { workloadKind } from '../render/fixtures.js';
import { historyCandidates } from './history.js';
import { referencedObjects, type ApplicationConfigurationStatus } from './status.js';

const ref = (name: string, kind = 'ZookeeperWorkload') => ({ apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind, name });

function rendered(name: string, revisionEnabled: boolean): RenderedComponent {
  return { componentName: 'zk', revision: name, revisionEnabled, workload: { kind: 'rendered', ref: ref(name), resource: workloadKind, object: { ...ref(name), metadata: { name } } }, traits: [], scopes: [] };
}

describe('historyCandidates', () => {
  const previous: ApplicationConfigurationStatus = {
    workloads: [{ componentName: 'zk', componentRevisionName: 'zk-v2', workloadRef: ref('zk-v2') }],
    historyWorkloads: [{ revision: 'zk-v1', workloadRef: { ...ref('zk-v1'), uid: 'u1' } }],
  };

  it('keeps the earlier history and adds the workload the revision moved on from', () => {
    expect(historyCandidates([rendered('zk-v3', true)], previous)).toEqual([ref('zk-v1'), ref('zk-v2')]);
  });

  it('looks for nothing when the component is not revisionEnabled, or for the current workload itself', () => {
    expect(historyCandidates([rendered('zk-v3', false)], previous)).toEqual([]);
    expect(historyCandidates([rendered('zk-v2', true)], { workloads: previous.workloads })).toEqual([]);
  });

  it('ignores workloads that are not revisions of the component or not of its kind', () => {
    const other: ApplicationConfigurationStatus = {
      workloads: [{ componentName: 'zk', workloadRef: ref('zk-main') }],
      historyWorkloads: [{ revision: 'zk-v1', workloadRef: ref('zk-v1', 'ConfigMap') }, { revision: 'zkx-v1', workloadRef: ref('zkx-v1') }],
    };
    expect(historyCandidates([rendered('zk-v3', true)], other)).toEqual([]);
  });

  it('counts history workloads among what the status references, so pruning never deletes them', () => {
    expect(referencedObjects(previous)).toEqual([ref('zk-v2'), { ...ref('zk-v1'), uid: 'u1' }]);
  });
});
