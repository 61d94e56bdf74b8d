// Unit tests of rendering: ApplicationConfiguration + Components + catalog in, whole objects out (strict equality).
import type { ApplicationConfiguration, Component } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { appConfig, catalog, component, healthScopeKind, rollingKind, scaleKind, scopeDefinition, traitDefinition, workloadKind } from './fixtures.js';
import type { Catalog } from './catalog.js';
import { renderApplication, type RenderInput } from './render.js';

const owner = {
  apiVersion: 'core.oam.dev/v1alpha2',
  kind: 'ApplicationConfiguration',
  name: 'orders',
  uid: 'uid-orders',
  controller: true,
  blockOwnerDeletion: true,
};
const labels = (resourceType: string): Record<string, string> => ({
  'app.oam.dev/name': 'orders',
  'app.oam.dev/component': 'zk',
  'app.oam.dev/revision': 'zk-v2',
  'app.oam.dev/resourceType': resourceType,
});
const workloadRef = { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'orders-zk' };
const input: RenderInput = { appConfig, components: new Map([['zk', component]]), revisions: new Map(), catalog };

/** A trait as rendered for the workload orders-zk: `spec` is the trait's own, workloadRef is added. */
function renderedTrait(ref: { apiVersion: string; kind: string; name: string }, resource: typeof scaleKind, spec: Record<string, unknown>) {
  const { apiVersion, kind, name } = ref;
  const metadata = { name, namespace: 'apps', labels: labels('TRAIT'), ownerReferences: [owner] };
  return { kind: 'rendered', ref, resource, object: { apiVersion, kind, spec: { ...spec, workloadRef }, metadata } };
}

function withEntry(entry: Partial<ApplicationConfiguration['spec']['components'][number]>): RenderInput {
  const first = appConfig.spec.components[0];
  return { ...input, appConfig: { ...appConfig, spec: { components: [{ ...first, ...entry }] } } };
}

describe('renderApplication', () => {
  it('renders the workload with parameters filled and the traits with workloadRef, OAM labels and the controller owner', () => {
    expect(renderApplication(input)).toStrictEqual([
      {
        componentName: 'zk',
        revision: 'zk-v2',
        revisionEnabled: false,
        workload: {
          kind: 'rendered',
          ref: workloadRef,
          resource: workloadKind,
          object: {
            apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1',
            kind: 'ZookeeperWorkload',
            spec: { storage: { size: '1Gi' }, config: { tickTime: 2500 } },
            metadata: { name: 'orders-zk', namespace: 'apps', labels: { team: 'data', ...labels('WORKLOAD') }, ownerReferences: [owner] },
          },
        },
        traits: [
          renderedTrait({ apiVersion: 'scale.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperScale', name: 'zk-zookeeperscale' }, scaleKind, { replicas: 5 }),
          renderedTrait({ apiVersion: 'rolling.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperRolling', name: 'orders-roll' }, rollingKind, { maxUnavailable: 1 }),
        ],
        scopes: [],
      },
    ]);
  });

  it("passes the ApplicationConfiguration's labels and annotations on, the template's and OAM's own winning, kubectl's last-applied not", () => {
    const labelled: ApplicationConfiguration = {
      ...appConfig,
      metadata: {
        ...appConfig.metadata,
        labels: { team: 'payments', env: 'prod', 'app.oam.dev/name': 'spoofed' },
        annotations: { owner: 'sre@example.com', 'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"ApplicationConfiguration"}' },
      },
    };
    const [rendered] = renderApplication({ ...input, appConfig: labelled });
    if (rendered?.workload.kind !== 'rendered') throw new Error('the workload was not rendered');
    expect(rendered.workload.object.metadata).toMatchObject({
      labels: { team: 'data', env: 'prod', ...labels('WORKLOAD') },
      annotations: { owner: 'sre@example.com' },
    });
    expect(rendered.workload.object.metadata?.annotations).not.toHaveProperty(['kubectl.kubernetes.io/last-applied-configuration']);
    for (const trait of rendered.traits) {
      if (trait.kind !== 'rendered') throw new Error('a trait was not rendered');
      expect(trait.object.metadata).toMatchObject({ labels: { team: 'payments', env: 'prod', ...labels('TRAIT') }, annotations: { owner: 'sre@example.com' } });
    }
  });

  describe('scopes', () => {
    const scopeRef = (name: string, kind = 'HealthScope') => ({ apiVersion: 'core.oam.dev/v1alpha2', kind, name });

    it('puts the workload in each scope a component names, with where the ScopeDefinition says it lists workloads', () => {
      const [rendered] = renderApplication(withEntry({ scopes: [{ scopeRef: { ...scopeRef('health'), uid: 'u1' } }, { scopeRef: scopeRef('edge') }] }));
      expect(rendered?.workload.kind).toBe('rendered');
      expect(rendered?.scopes).toStrictEqual([
        { kind: 'scope', ref: scopeRef('health'), resource: healthScopeKind, workloadRefsPath: 'spec.workloadRefs' },
        { kind: 'scope', ref: scopeRef('edge'), resource: healthScopeKind, workloadRefsPath: 'spec.workloadRefs' },
      ]);
    });

    it('leaves a scope untold when its ScopeDefinition has no workloadRefsPath', () => {
      const untold = { ...catalog, scopeDefinitions: [scopeDefinition('healthscopes.core.oam.dev')] };
      const [rendered] = renderApplication({ ...withEntry({ scopes: [{ scopeRef: scopeRef('health') }] }), catalog: untold });
      expect(rendered?.scopes).toStrictEqual([{ kind: 'scope', ref: scopeRef('health'), resource: healthScopeKind, workloadRefsPath: undefined }]);
    });

    it('reports a scope kind nobody registers or the apiserver does not serve, and still renders the workload and traits', () => {
      const unregistered = { ...catalog, scopeDefinitions: [] };
      const [rendered] = renderApplication({ ...withEntry({ scopes: [{ scopeRef: scopeRef('health') }, { scopeRef: scopeRef('net', 'NetworkScope') }] }), catalog: unregistered });
      expect(rendered?.workload.kind).toBe('rendered');
      expect(rendered?.traits.map((trait) => trait.kind)).toStrictEqual(['rendered', 'rendered']);
      expect(rendered?.scopes).toStrictEqual([
        { kind: 'problem', ref: scopeRef('health'), reason: 'ScopeDefinitionNotFound', message: 'no ScopeDefinition healthscopes.core.oam.dev registers scope kind HealthScope, so scope health is not told of its workloads' },
        { kind: 'problem', ref: scopeRef('net', 'NetworkScope'), reason: 'KindNotServed', message: 'scope kind NetworkScope (core.oam.dev/v1alpha2) is not served by the apiserver' },
      ]);
    });

    it('has no scopes for a component whose workload is not rendered', () => {
      const [rendered] = renderApplication(withEntry({ componentName: 'nope', scopes: [{ scopeRef: scopeRef('health') }] }));
      expect(rendered?.workload.kind).toBe('problem');
      expect(rendered?.scopes).toStrictEqual([]);
    });
  });

  it('names the workload after its component when the template names none, and leaves unset fields (spec.replicas) out', () => {
    const unnamed: Component = { ...component, spec: { workload: component.spec.workload } };
    const [rendered] = renderApplication({ ...withEntry({ parameterValues: [], traits: [] }), components: new Map([['zk', unnamed]]) });
    expect(rendered?.workload).toMatchObject({ kind: 'rendered', ref: { name: 'zk' }, object: { metadata: { name: 'zk' }, spec: { storage: { size: '1Gi' } } } });
    expect(rendered?.workload.kind === 'rendered' && rendered.workload.object['spec']).toStrictEqual({ storage: { size: '1Gi' } });
  });

  it('renders the revision an entry pins with revisionName, labelled with it, and the Component as it is now otherwise, labelled with its latest revision', () => {
    const v1: Component = { ...component, spec: { ...component.spec, workload: { ...component.spec.workload, spec: { storage: { size: '5Gi' } } } } };
    const current: Component = { ...component, status: { observedGeneration: 2, latestRevision: { name: 'zk-v3', revision: 3 } } };
    const pinned = { ...withEntry({ componentName: undefined, revisionName: 'zk-v1', traits: [] }), components: new Map([['zk', current]]), revisions: new Map([['zk-v1', v1]]) };
    const [old] = renderApplication(pinned);
    expect(old).toMatchObject({ componentName: 'zk', revision: 'zk-v1', workload: { kind: 'rendered', object: { spec: { storage: { size: '5Gi' } }, metadata: { labels: { 'app.oam.dev/revision': 'zk-v1' } } } } });
    const [now] = renderApplication({ ...withEntry({ traits: [] }), components: new Map([['zk', current]]) });
    expect(now).toMatchObject({ componentName: 'zk', revision: 'zk-v3', workload: { kind: 'rendered', object: { spec: { storage: { size: '1Gi' } }, metadata: { labels: { 'app.oam.dev/revision': 'zk-v3' } } } } });
  });

  it('names the workload after the revision when a trait definition is revisionEnabled, unless the template names it', () => {
    const revisioned: Catalog = {
      ...catalog,
      traitDefinitions: catalog.traitDefinitions.map((definition) =>
        definition.metadata.name.startsWith('zookeeperrollings') ? { ...definition, spec: { ...definition.spec, revisionEnabled: true } } : definition,
      ),
    };
    const withoutName: Component = { ...component, spec: { ...component.spec, parameters: [] } };
    const [perRevision] = renderApplication({ ...withEntry({ parameterValues: [] }), components: new Map([['zk', withoutName]]), catalog: revisioned });
    expect(perRevision).toMatchObject({ revisionEnabled: true, workload: { kind: 'rendered', ref: { name: 'zk-v2' } } });
    expect(perRevision?.traits[1]).toMatchObject({ kind: 'rendered', object: { spec: { workloadRef: { name: 'zk-v2' } } } });
    const [named] = renderApplication({ ...input, catalog: revisioned });
    expect(named).toMatchObject({ revisionEnabled: true, workload: { ref: { name: 'orders-zk' } } });
  });

  it('reports a pinned revision that does not exist', () => {
    const [rendered] = renderApplication(withEntry({ componentName: undefined, revisionName: 'zk-v9', traits: [] }));
    expect(rendered?.workload).toStrictEqual({ kind: 'problem', ref: undefined, reason: 'ComponentNotFound', message: 'Component revision zk-v9 is not in this namespace' });
  });

  it('reports a component that does not exist, and renders the others', () => {
    const missing = { componentName: 'nope', traits: [] };
    const both = { ...input, appConfig: { ...appConfig, spec: { components: [missing, ...appConfig.spec.components] } } };
    const [first, second] = renderApplication(both);
    expect(first).toStrictEqual({
      componentName: 'nope',
      revision: undefined,
      revisionEnabled: false,
      workload: { kind: 'problem', ref: undefined, reason: 'ComponentNotFound', message: 'Component nope is not in this namespace' },
      traits: [],
      scopes: [],
    });
    expect(second?.workload.kind).toBe('rendered');
  });

  it('reports a workload kind without a WorkloadDefinition, and renders none of its traits', () => {
    const [rendered] = renderApplication({ ...input, catalog: { ...catalog, workloadDefinitions: [] } });
    expect(rendered?.workload).toStrictEqual({
      kind: 'problem',
      ref: workloadRef,
      reason: 'WorkloadDefinitionNotFound',
      message: 'no WorkloadDefinition zookeeperworkloads.workload.zookeeper.zkoam.dev registers workload kind ZookeeperWorkload',
    });
    expect(rendered?.traits).toStrictEqual([]);
  });

  it('reports a trait without a TraitDefinition and still renders the other trait', () => {
    const [rendered] = renderApplication({ ...input, catalog: { ...catalog, traitDefinitions: catalog.traitDefinitions.slice(1) } });
    expect(rendered?.traits[0]).toStrictEqual({
      kind: 'problem',
      ref: { apiVersion: 'scale.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperScale', name: 'zk-zookeeperscale' },
      reason: 'TraitDefinitionNotFound',
      message: 'no TraitDefinition zookeeperscales.scale.zookeeper.zkoam.dev registers trait kind ZookeeperScale',
    });
    expect(rendered?.traits[1]?.kind).toBe('rendered');
  });

  it('reports a kind the apiserver does not serve', () => {
    const [rendered] = renderApplication({ ...input, catalog: { ...catalog, resources: [workloadKind, scaleKind] } });
    expect(rendered?.traits[1]).toMatchObject({ kind: 'problem', reason: 'KindNotServed', message: 'trait kind ZookeeperRolling (rolling.zookeeper.zkoam.dev/v1alpha1) is not served by the apiserver' });
  });

  it('reports a trait whose appliesToWorkloads excludes the workload kind', () => {
    const onlyKafka = traitDefinition('zookeeperscales.scale.zookeeper.zkoam.dev', ['kafkas.kafka.example', '*.example']);
    const [rendered] = renderApplication({ ...input, catalog: { ...catalog, traitDefinitions: [onlyKafka, ...catalog.traitDefinitions.slice(1)] } });
    expect(rendered?.traits[0]).toMatchObject({
      kind: 'problem',
      reason: 'TraitNotApplicable',
      message: 'trait ZookeeperScale applies to kafkas.kafka.example, *.example, not to workload kind ZookeeperWorkload',
    });
    expect(rendered?.traits[1]?.kind).toBe('rendered');
  });

  it('reports two traits that would render the same object', () => {
    const scale = { trait: { apiVersion: 'scale.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperScale', spec: { replicas: 3 } } };
    const [rendered] = renderApplication(withEntry({ traits: [scale, scale] }));
    expect(rendered?.traits.map((trait) => (trait.kind === 'problem' ? trait.reason : trait.kind))).toEqual(['rendered', 'DuplicateObject']);
  });

  it('reports an invalid parameter as InvalidParameter on the workload', () => {
    const [rendered] = renderApplication(withEntry({ parameterValues: [{ name: 'instance', value: 'x' }, { name: 'replicas', value: 5 }] }));
    expect(rendered?.workload).toStrictEqual({
      kind: 'problem',
      ref: undefined,
      reason: 'InvalidParameter',
      message: 'Component zk: parameter(s) replicas not declared (declared: tickTime, instance)',
    });
  });

  it('writes the workloadRef where the TraitDefinition says, and reports a path it cannot write', () => {
    const deep = traitDefinition('zookeeperscales.scale.zookeeper.zkoam.dev', undefined, 'spec.target.ref');
    const bad = traitDefinition('zookeeperrollings.rolling.zookeeper.zkoam.dev', undefined, 'spec.maxUnavailable.ref');
    const [rendered] = renderApplication({ ...input, catalog: { ...catalog, traitDefinitions: [deep, bad] } });
    expect(rendered?.traits[0]?.kind === 'rendered' && rendered.traits[0].object['spec']).toStrictEqual({ replicas: 5, target: { ref: workloadRef } });
    expect(rendered?.traits[1]).toMatchObject({
      kind: 'problem',
      reason: 'InvalidTrait',
      message: 'TraitDefinition zookeeperrollings.rolling.zookeeper.zkoam.dev: workloadRefPath field path "spec.maxUnavailable.ref" passes through a number value',
    });
  });
});
