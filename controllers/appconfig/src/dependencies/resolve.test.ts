// Data dependencies across one ApplicationConfiguration: sources to read, inputs filled or held back, unknown outputs.
import type { ApplicationConfiguration, Component } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { catalog, component } from '../render/fixtures.js';
import { renderApplication } from '../render/render.js';
import { resolveDependencies, sourcesToRead } from './resolve.js';

const client: Component = {
  ...component,
  metadata: { ...component.metadata, name: 'client' },
  spec: { workload: { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', spec: { storage: { size: '1Gi' } } } },
};
const server: Component = { ...client, metadata: { ...client.metadata, name: 'server' } };

function appConfigWith(input: string): ApplicationConfiguration {
  return {
    apiVersion: 'core.oam.dev/v1alpha2',
    kind: 'ApplicationConfiguration',
    metadata: { name: 'wired', namespace: 'apps', uid: 'uid-wired' },
    spec: {
      components: [
        { componentName: 'server', dataOutputs: [{ name: 'endpoint', fieldPath: 'status.clientService', conditions: [{ op: 'eq', value: 'Ready', fieldPath: 'status.phase' }] }] },
        {
          componentName: 'client',
          dataInputs: [{ valueFrom: { dataOutputName: input }, toFieldPaths: ['spec.config.upstream'] }],
          traits: [{ trait: { apiVersion: 'rolling.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperRolling', spec: {} } }],
        },
      ],
    },
  };
}

const components = new Map([
  ['server', server],
  ['client', client],
]);
const render = (appConfig: ApplicationConfiguration) => renderApplication({ appConfig, components, revisions: new Map(), catalog });
const serverKey = 'workload.zookeeper.zkoam.dev/v1alpha1/ZookeeperWorkload/server';
const clientKey = 'workload.zookeeper.zkoam.dev/v1alpha1/ZookeeperWorkload/client';

describe('resolveDependencies', () => {
  it('reads only the objects an input names', () => {
    const appConfig = appConfigWith('endpoint');
    expect(sourcesToRead(appConfig, render(appConfig)).map((object) => object.ref.name)).toEqual(['server']);
  });

  it('holds the object back while its source is not ready, and lists why; its traits are still applied', () => {
    const appConfig = appConfigWith('endpoint');
    const resolved = resolveDependencies(appConfig, render(appConfig), new Map([[serverKey, { status: { phase: 'Creating', clientService: 'server-client' } }]]));
    expect([...resolved.held]).toEqual([clientKey]);
    expect(resolved.unsatisfied).toEqual([
      {
        reason: 'got(Creating) expected to be Ready',
        from: { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'server', fieldPath: 'status.clientService' },
        to: { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'client', fieldPaths: ['spec.config.upstream'] },
      },
    ]);
    expect(resolved.rendered[1]?.traits[0]).toMatchObject({ kind: 'rendered' });
    expect(resolveDependencies(appConfig, render(appConfig), new Map()).unsatisfied[0]?.reason).toBe('failed to get object (apps/server)');
  });

  it('writes the value into the object once the source is ready', () => {
    const appConfig = appConfigWith('endpoint');
    const resolved = resolveDependencies(appConfig, render(appConfig), new Map([[serverKey, { status: { phase: 'Ready', clientService: 'server-client' } }]]));
    expect(resolved.held.size).toBe(0);
    expect(resolved.unsatisfied).toEqual([]);
    expect(resolved.rendered[1]?.workload).toMatchObject({ kind: 'rendered', object: { spec: { config: { upstream: 'server-client' }, storage: { size: '1Gi' } } } });
  });

  it('reports an input naming an output nobody declares, and does not render its object', () => {
    const appConfig = appConfigWith('nowhere');
    const resolved = resolveDependencies(appConfig, render(appConfig), new Map());
    expect(resolved.rendered[1]?.workload).toMatchObject({ kind: 'problem', reason: 'DataOutputNotFound' });
    expect(resolved.rendered[1]?.workload.kind === 'problem' ? resolved.rendered[1].workload.message : '').toBe(
      'ZookeeperWorkload client takes data output "nowhere", which no component or trait of this ApplicationConfiguration declares',
    );
  });
});
