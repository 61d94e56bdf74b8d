// The generated CRDs on a real apiserver: they are accepted, they apply the same defaults as zod, and they
// reject invalid objects naming the field, just as the zod schemas do.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ApiException, ApiextensionsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import {
  applicationConfigurationSchema,
  componentSchema,
  crdManifests,
  derivedNames,
  FULL_WORKLOAD_SPEC_EXAMPLE,
  MAX_WORKLOAD_NAME_LENGTH,
  OAM_APPLICATION_CONFIGURATION,
  OAM_COMPONENT,
  oamCrdManifests,
  parseResource,
  ResourceValidationError,
  ZOOKEEPER_ROLLING,
  ZOOKEEPER_SCALE,
  ZOOKEEPER_WORKLOAD,
  zookeeperRollingSchema,
  zookeeperScaleSchema,
  zookeeperWorkloadSchema,
  type CustomResourceDefinition,
  type KindInfo,
  type WorkloadRef,
} from '@zk-oam/apis';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../src/wait-for.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const namespace = `crds-${Date.now().toString(36)}`;
const FIELD_MANAGER = 'zk-oam-crd-test';
let kubeconfig: PooledKubeConfig;
let customObjects: CustomObjectsApi;
let namespaceCreated = false;

interface Kind<T extends { spec: unknown } = { spec: unknown }> {
  info: KindInfo;
  schema: z.ZodType<T>;
}
type TraitKind = Kind<{ spec: { workloadRef: WorkloadRef } }>;
const WORKLOAD: Kind = { info: ZOOKEEPER_WORKLOAD, schema: zookeeperWorkloadSchema };
const SCALE: TraitKind = { info: ZOOKEEPER_SCALE, schema: zookeeperScaleSchema };
const ROLLING: TraitKind = { info: ZOOKEEPER_ROLLING, schema: zookeeperRollingSchema };

function manifest(kind: Kind, name: string, spec: unknown): Record<string, unknown> {
  return { apiVersion: kind.info.apiVersion, kind: kind.info.kind, metadata: { name, namespace }, ...(spec === undefined ? {} : { spec }) };
}

function target(kind: Kind): { group: string; version: string; namespace: string; plural: string } {
  return { group: kind.info.group, version: kind.info.version, namespace, plural: kind.info.plural };
}

async function create(kind: Kind, body: Record<string, unknown>): Promise<unknown> {
  return customObjects.createNamespacedCustomObject({ ...target(kind), body });
}

/** The apiserver's rejection message, or a failure if it accepted the object. */
async function rejection(request: Promise<unknown>): Promise<string> {
  try {
    await request;
  } catch (error) {
    if (error instanceof ApiException && error.code === 422) return String(error.body);
    throw error;
  }
  throw new Error('the apiserver accepted an invalid object');
}

function zodProblemPaths(kind: Kind, body: unknown): string[] {
  try {
    parseResource(kind.schema, body, kind.info.kind);
  } catch (error) {
    if (error instanceof ResourceValidationError) return error.problems.map((problem) => problem.path);
    throw error;
  }
  return [];
}

/**
 * Applies the CRDs with kubectl, as a person installs them. client-node's typed serializer is not used on purpose:
 * it maps known kinds through its models, which drop `x-kubernetes-*` keys written in their JSON spelling.
 */
async function kubectlApply(objects: readonly object[]): Promise<void> {
  const { binDir, kubeconfig: file } = workerBed();
  const args = ['--kubeconfig', file, 'apply', '--server-side', '--force-conflicts', `--field-manager=${FIELD_MANAGER}`, '-f', '-'];
  const child = spawn(join(binDir, 'kubectl'), args, { stdio: ['pipe', 'ignore', 'pipe'], timeout: 60_000 });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`kubectl apply of the CRDs exited with ${String(code)}: ${stderr}`);
}

async function applyAndWaitEstablished(crds: CustomResourceDefinition[]): Promise<void> {
  await kubectlApply(crds);
  const extensions = kubeconfig.makeApiClient(ApiextensionsV1Api);
  for (const crd of crds) {
    await waitFor(
      `CRD ${crd.metadata.name} Established`,
      async () => (await extensions.readCustomResourceDefinition({ name: crd.metadata.name })).status?.conditions,
      (conditions) => conditions?.some((c) => c.type === 'Established' && c.status === 'True') === true,
      60_000,
      200,
    );
  }
}

beforeAll(async () => {
  kubeconfig = new PooledKubeConfig();
  kubeconfig.loadFromFile(workerBed().kubeconfig);
  customObjects = kubeconfig.makeApiClient(CustomObjectsApi);
  await applyAndWaitEstablished([...crdManifests(), ...oamCrdManifests()]);
  await kubeconfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
  namespaceCreated = true;
});

afterAll(async () => {
  if (namespaceCreated) await kubeconfig.makeApiClient(CoreV1Api).deleteNamespace({ name: namespace });
});

describe('generated CRDs on the apiserver', () => {
  it.each<[string, Kind, unknown]>([
    ['ZookeeperWorkload', WORKLOAD, {}],
    ['ZookeeperScale', SCALE, { workloadRef: { name: 'zk' }, replicas: 5 }],
    ['ZookeeperRolling', ROLLING, { workloadRef: { name: 'zk' }, restartTrigger: 'nonce-1' }],
  ])('defaults a minimal %s exactly as the zod schema does', async (_kind, kind, spec) => {
    const body = manifest(kind, `defaults-${kind.info.plural}`, spec);
    const created = parseResource(kind.schema, await create(kind, body), 'created object');
    expect(created.spec).toEqual(parseResource(kind.schema, body, 'input').spec);
  });

  it('accepts a fully specified ZookeeperWorkload and stores it unchanged', async () => {
    const created = await create(WORKLOAD, manifest(WORKLOAD, 'full', FULL_WORKLOAD_SPEC_EXAMPLE));
    expect(parseResource(zookeeperWorkloadSchema, created, 'created').spec).toEqual(FULL_WORKLOAD_SPEC_EXAMPLE);
  });

  it('accepts an OAM Component wrapping a workload and an ApplicationConfiguration with both traits', async () => {
    const oam = (info: KindInfo) => ({ group: info.group, version: info.version, namespace, plural: info.plural });
    const component = await customObjects.createNamespacedCustomObject({
      ...oam(OAM_COMPONENT),
      body: {
        apiVersion: OAM_COMPONENT.apiVersion,
        kind: OAM_COMPONENT.kind,
        metadata: { name: 'zk' },
        spec: {
          workload: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, spec: { replicas: 3 } },
          parameters: [{ name: 'replicas', fieldPaths: ['spec.replicas'] }],
        },
      },
    });
    expect(parseResource(componentSchema, component, 'Component').spec.workload).toMatchObject({ spec: { replicas: 3 } });
    const trait = (kind: Kind, spec: unknown): unknown => ({ trait: { apiVersion: kind.info.apiVersion, kind: kind.info.kind, spec } });
    const appConfig = await customObjects.createNamespacedCustomObject({
      ...oam(OAM_APPLICATION_CONFIGURATION),
      body: {
        apiVersion: OAM_APPLICATION_CONFIGURATION.apiVersion,
        kind: OAM_APPLICATION_CONFIGURATION.kind,
        metadata: { name: 'app' },
        spec: {
          components: [
            {
              componentName: 'zk',
              parameterValues: [{ name: 'replicas', value: 5 }],
              traits: [trait(SCALE, { replicas: 5 }), trait(ROLLING, { maxUnavailable: 1 })],
            },
          ],
        },
      },
    });
    const parsed = parseResource(applicationConfigurationSchema, appConfig, 'ApplicationConfiguration');
    expect(parsed.spec.components[0]?.traits?.map((t) => t.trait.kind)).toEqual(['ZookeeperScale', 'ZookeeperRolling']);
  });

  it('serves the scale subresource of a workload and of a scale trait', async () => {
    await create(WORKLOAD, manifest(WORKLOAD, 'scalable', { replicas: 3 }));
    await create(SCALE, manifest(SCALE, 'scalable', { workloadRef: { name: 'scalable' }, replicas: 5 }));
    const workloadScale: unknown = await customObjects.getNamespacedCustomObjectScale({ ...target(WORKLOAD), name: 'scalable' });
    const traitScale: unknown = await customObjects.getNamespacedCustomObjectScale({ ...target(SCALE), name: 'scalable' });
    expect(workloadScale).toMatchObject({ kind: 'Scale', spec: { replicas: 3 } });
    expect(traitScale).toMatchObject({ kind: 'Scale', spec: { replicas: 5 } });
  });

  it('accepts a valid status through the status subresource and rejects an unknown phase', async () => {
    const name = 'with-status';
    await create(ROLLING, manifest(ROLLING, name, { workloadRef: { name: 'zk' } }));
    const current = await customObjects.getNamespacedCustomObject({ ...target(ROLLING), name });
    const status = {
      phase: 'Rolling',
      updatedReplicas: 1,
      pendingReplicas: 2,
      currentPod: 'zk-1',
      leaderRestarted: false,
      startedAt: '2026-11-22T04:00:00Z',
      conditions: [{ type: 'Progressing', status: 'True', reason: 'RestartingFollower', message: 'zk-1', lastTransitionTime: '2026-11-22T04:00:00Z', observedGeneration: 1 }],
    };
    const updated = await customObjects.replaceNamespacedCustomObjectStatus({ ...target(ROLLING), name, body: { ...current, status } });
    expect(parseResource(zookeeperRollingSchema, updated, 'updated').status).toEqual(status);
    const bad = await rejection(
      customObjects.replaceNamespacedCustomObjectStatus({ ...target(ROLLING), name, body: { ...updated, status: { phase: 'Exploded' } } }),
    );
    expect(bad).toContain('status.phase');
  });

  const invalid: [string, Kind, unknown, string][] = [
    ['replicas 0', WORKLOAD, { replicas: 0 }, 'spec.replicas'],
    ['replicas as a string', WORKLOAD, { replicas: 'three' }, 'spec.replicas'],
    ['an unknown pull policy', WORKLOAD, { image: { pullPolicy: 'Sometimes' } }, 'spec.image.pullPolicy'],
    ['a storage size that is not a quantity', WORKLOAD, { storage: { size: '10 GB' } }, 'spec.storage.size'],
    ['a negative memory limit', WORKLOAD, { resources: { limits: { memory: '-1Gi' } } }, 'spec.resources.limits.memory'],
    ['memory requests above limits', WORKLOAD, { resources: { requests: { memory: '4Gi' }, limits: { memory: '2Gi' } } }, 'spec.resources.requests.memory'],
    ['cpu requests above limits', WORKLOAD, { resources: { requests: { cpu: 2 }, limits: { cpu: '1500m' } } }, 'spec.resources.requests.cpu'],
    ['a heap as large as the memory limit', WORKLOAD, { resources: { limits: { memory: '1Gi' } }, jvm: { heap: '1Gi' } }, 'spec.jvm.heap'],
    ['tickTime below its bound', WORKLOAD, { config: { tickTime: 10 } }, 'spec.config.tickTime'],
    ['a forbidden additionalConfig key', WORKLOAD, { config: { additionalConfig: { skipACL: 'yes' } } }, 'spec.config.additionalConfig'],
    ['a membership line in additionalConfig', WORKLOAD, { config: { additionalConfig: { 'server.1': '127.0.0.1:2888:3888' } } }, 'spec.config.additionalConfig'],
    ['a multi-line additionalConfig value', WORKLOAD, { config: { additionalConfig: { 'jute.maxbuffer': '1\nskipACL=yes' } } }, 'spec.config.additionalConfig.jute.maxbuffer'],
    ['minSessionTimeout above maxSessionTimeout', WORKLOAD, { config: { minSessionTimeout: 9000, maxSessionTimeout: 4000 } }, 'spec.config.minSessionTimeout'],
    ['an unknown anti-affinity mode', WORKLOAD, { placement: { antiAffinity: 'always' } }, 'spec.placement.antiAffinity'],
    ['an unknown client Service type', WORKLOAD, { clientService: { type: 'ExternalName' } }, 'spec.clientService.type'],
    ['a privileged metrics port', WORKLOAD, { metrics: { port: 80 } }, 'spec.metrics.port'],
    ['an upper-case Secret name', WORKLOAD, { superuserSecretRef: { name: 'Super' } }, 'spec.superuserSecretRef.name'],
    ['a workload without a spec', WORKLOAD, undefined, 'spec'],
    ['a scale to 0 replicas', SCALE, { workloadRef: { name: 'zk' }, replicas: 0 }, 'spec.replicas'],
    ['a negative step timeout', SCALE, { workloadRef: { name: 'zk' }, replicas: 3, stepTimeoutSeconds: -5 }, 'spec.stepTimeoutSeconds'],
    ['a workloadRef to another kind', SCALE, { workloadRef: { kind: 'StatefulSet', name: 'zk' }, replicas: 3 }, 'spec.workloadRef.kind'],
    ['an unknown removed-member volume policy', SCALE, { workloadRef: { name: 'zk' }, replicas: 3, removedMemberVolumePolicy: 'Recycle' }, 'spec.removedMemberVolumePolicy'],
    ['maxUnavailable 0', ROLLING, { workloadRef: { name: 'zk' }, maxUnavailable: 0 }, 'spec.maxUnavailable'],
    ['paused as a string', ROLLING, { workloadRef: { name: 'zk' }, paused: 'yes' }, 'spec.paused'],
  ];

  it.each(invalid.map(([description, kind, spec, path], index) => [description, kind, spec, path, index] as const))(
    'rejects %s naming the field, and so does zod',
    async (_description, kind, spec, path, index) => {
      const body = manifest(kind, `invalid-${index}`, spec);
      expect(await rejection(create(kind, body))).toContain(`${path}: `);
      expect(zodProblemPaths(kind, body).some((problem) => problem.startsWith(path))).toBe(true);
    },
  );

  it('refuses a ZookeeperWorkload whose name is too long for the objects named after it, naming metadata.name', async () => {
    const longest = 'z'.repeat(MAX_WORKLOAD_NAME_LENGTH);
    expect(derivedNames(longest).headlessService.length).toBeLessThanOrEqual(63);
    await create(WORKLOAD, manifest(WORKLOAD, longest, { replicas: 3 }));
    const tooLong = `${longest}z`;
    const message = await rejection(create(WORKLOAD, manifest(WORKLOAD, tooLong, { replicas: 3 })));
    expect(message).toContain('metadata.name must be at most');
  });

  it.each<[string, TraitKind, unknown]>([
    ['ZookeeperScale', SCALE, { workloadRef: { name: 'zk' }, replicas: 3 }],
    ['ZookeeperRolling', ROLLING, { workloadRef: { name: 'zk' } }],
  ])('refuses to change the workloadRef of a %s', async (_kind, kind, spec) => {
    const name = `retarget-${kind.info.plural}`;
    const created = parseResource(kind.schema, await create(kind, manifest(kind, name, spec)), 'created');
    const retargeted = { ...created, spec: { ...created.spec, workloadRef: { ...created.spec.workloadRef, name: 'other' } } };
    const message = await rejection(customObjects.replaceNamespacedCustomObject({ ...target(kind), name, body: retargeted }));
    expect(message).toContain('spec.workloadRef');
    expect(message).toContain('immutable');
  });
});
