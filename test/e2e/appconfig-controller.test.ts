// The appconfig controller as a process with only deploy/appconfig RBAC, beside the workload controller, on the bed:
// the sample ApplicationConfiguration becomes a Ready ZookeeperWorkload (real ZooKeeper) and two trait CRs that wait
// harmlessly for their controllers; parameter and Component changes re-render; each Component spec change is kept as
// a ControllerRevision an entry may pin; a data input holds its object back until ready (a trait until its ensemble
// runs); a client application and its ZookeeperZnode declared in one ApplicationConfiguration get a Ready znode, whose
// published connect string the application's settings take and a client writes through (with the znode controller);
// a removed trait is deleted; workloads are added to and removed from their scopes; bad input is a condition
// and an Event; deleting the ApplicationConfiguration garbage-collects everything; a standby replica takes over when
// the leader stops.
import { join } from 'node:path';
import {
  applicationConfigurationSchema,
  OAM_APPLICATION_CONFIGURATION,
  OAM_COMPONENT,
  parseResource,
  ZOOKEEPER_ROLLING,
  ZOOKEEPER_SCALE,
  ZOOKEEPER_WORKLOAD,
  ZOOKEEPER_ZNODE,
  DISCOVERY_CONFIG_KEYS,
  type ApplicationConfiguration,
  type KindInfo,
} from '@zk-oam/apis';
import { isApiError, KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventsAbout,
  installCrds,
  installOam,
  isReady,
  kubectl,
  repoRoot,
  startControllerProcess,
  stopCleanly,
  waitControllerReady,
  waitFor,
  WorkloadClient,
  type ControllerProcess,
} from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { readDiscovery, tenantZkCli, ZnodeClient, znodeCondition } from './znode-support.js';

const bed = workerBed();
const namespace = `appconfig-${Date.now().toString(36)}`;
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const api = new KubeClient(kubeConfig);
const workloads = new WorkloadClient(bed);
const ENSEMBLE_TIMEOUT_MS = 420_000;
const APP = 'example';
const workloadRef = { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name: 'zookeeper' };
const scaleRef = { apiVersion: ZOOKEEPER_SCALE.apiVersion, kind: ZOOKEEPER_SCALE.kind, name: 'zookeeper-scale' };
const rollingRef = { apiVersion: ZOOKEEPER_ROLLING.apiVersion, kind: ZOOKEEPER_ROLLING.kind, name: 'zookeeper-rolling' };
let appconfigController: ControllerProcess | undefined;
let workloadController: ControllerProcess | undefined;
let znodeController: ControllerProcess | undefined;

const objectSchema = z.looseObject({
  metadata: z.looseObject({
    uid: z.string(),
    generation: z.int().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    ownerReferences: z.array(z.looseObject({ kind: z.string(), name: z.string(), uid: z.string(), controller: z.boolean().optional() })).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
    managedFields: z.array(z.looseObject({ manager: z.string(), operation: z.string(), fieldsV1: z.unknown() })).optional(),
  }),
  spec: z.record(z.string(), z.unknown()).optional(),
  data: z.record(z.string(), z.string()).optional(),
  status: z.unknown().optional(),
});
type LiveObject = z.infer<typeof objectSchema>;

function path(kind: Pick<KindInfo, 'group' | 'version' | 'plural'>, name: string): string {
  const base = kind.group === '' ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  return `${base}/namespaces/${namespace}/${kind.plural}/${name}`;
}

const CONFIG_MAP = { group: '', version: 'v1', plural: 'configmaps' };
const CONTROLLER_REVISION = { group: 'apps', version: 'v1', plural: 'controllerrevisions' };
const TEAM_SCOPE = { group: 'example.zkoam.dev', version: 'v1', plural: 'teamscopes' };
/** A scope kind of the test's own: its CRD, then its ScopeDefinition and the RBAC that lets the controller tell it. */
const SCOPE_KIND = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: teamscopes.example.zkoam.dev }
spec:
  group: example.zkoam.dev
  names: { kind: TeamScope, plural: teamscopes, singular: teamscope, listKind: TeamScopeList }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                workloadRefs:
                  type: array
                  items: { type: object, properties: { apiVersion: { type: string }, kind: { type: string }, name: { type: string } } }
`;
const SCOPE_REGISTRATION = `
apiVersion: core.oam.dev/v1alpha2
kind: ScopeDefinition
metadata: { name: teamscopes.example.zkoam.dev }
spec: { definitionRef: { name: teamscopes.example.zkoam.dev }, workloadRefsPath: spec.workloadRefs, allowComponentOverlap: true }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: test-appconfig-teamscopes
  labels: { oam.zkoam.dev/aggregate-to-appconfig: "true" }
rules:
  - { apiGroups: [example.zkoam.dev], resources: [teamscopes], verbs: [get, patch] }
`;
const APPCONFIG_ENV = { WAIT_PERIOD_MS: '2000', DISCOVERY_TTL_MS: '1000', DEPENDENCY_CHECK_PERIOD_MS: '1000' };
const leaseSchema = z.looseObject({ spec: z.looseObject({ holderIdentity: z.string().optional() }) });

/** The object, or undefined once it is gone. */
async function read(kind: Pick<KindInfo, 'group' | 'version' | 'plural'>, name: string): Promise<LiveObject | undefined> {
  try {
    return objectSchema.parse(await api.request('GET', path(kind, name)));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

async function appConfig(name = APP): Promise<ApplicationConfiguration> {
  return parseResource(applicationConfigurationSchema, await api.request('GET', path(OAM_APPLICATION_CONFIGURATION, name)), `ApplicationConfiguration ${name}`);
}

function synced(config: ApplicationConfiguration): { status: string; reason: string; message?: string | undefined } | undefined {
  return config.status?.conditions?.find((condition) => condition.type === 'Synced');
}

async function waitSynced(what: string, accept: (config: ApplicationConfiguration) => boolean, name = APP): Promise<ApplicationConfiguration> {
  return waitFor(what, () => appConfig(name), accept, 90_000);
}

async function apply(yaml: string): Promise<void> {
  await kubectl(bed, ['apply', '--server-side', '-n', namespace, '-f', '-'], yaml);
}

async function patchJson(resource: string, name: string, operations: unknown[]): Promise<void> {
  await kubectl(bed, ['patch', resource, name, '-n', namespace, '--type=json', '-p', JSON.stringify(operations)]);
}

function ownedByApp(object: LiveObject | undefined, uid: string): boolean {
  return object?.metadata.ownerReferences?.some((owner) => owner.kind === 'ApplicationConfiguration' && owner.uid === uid && owner.controller === true) ?? false;
}

function oamLabels(resourceType: string, revision = 'zookeeper-v1'): Record<string, string> {
  return { 'app.oam.dev/name': APP, 'app.oam.dev/component': 'zookeeper', 'app.oam.dev/revision': revision, 'app.oam.dev/resourceType': resourceType };
}

async function notes(name: string): Promise<{ type?: string | undefined; reason?: string | undefined; note?: string | undefined }[]> {
  return (await eventsAbout(workloads, namespace, name, OAM_APPLICATION_CONFIGURATION.kind)).map(({ type, reason, note }) => ({ type, reason, note }));
}

describe('the appconfig controller on the bed', () => {
  beforeAll(async () => {
    await installCrds(bed);
    await installOam(bed);
    workloadController = await startControllerProcess({ bed, name: 'workload' });
    appconfigController = await startControllerProcess({ bed, name: 'appconfig', env: APPCONFIG_ENV });
    znodeController = await startControllerProcess({ bed, name: 'znode', env: { WAIT_PERIOD_MS: '1000' } });
    await waitControllerReady(workloadController);
    await waitControllerReady(appconfigController);
    await waitControllerReady(znodeController);
    await workloads.createNamespace(namespace);
    await kubectl(bed, ['apply', '--server-side', '-n', namespace, '-f', join(repoRoot, 'deploy/samples/component.yaml'), '-f', join(repoRoot, 'deploy/samples/application-configuration.yaml')]);
  });

  afterAll(async () => {
    await workloads.deleteNamespace(namespace);
    await kubectl(bed, [
      'delete',
      '--ignore-not-found',
      'workloaddefinition/configmaps',
      'traitdefinition/configmaps',
      'clusterrole/test-appconfig-configmaps',
      'scopedefinition/teamscopes.example.zkoam.dev',
      'clusterrole/test-appconfig-teamscopes',
      'crd/teamscopes.example.zkoam.dev',
    ]);
    // A clean exit means reconciles finished and the lease was released.
    await stopCleanly(appconfigController);
    await stopCleanly(workloadController);
    await stopCleanly(znodeController);
  });

  it('renders the sample into a ZookeeperWorkload the workload controller brings to Ready, and two trait CRs with workloadRef, labels and owner', async () => {
    const config = await waitSynced('the sample to be Synced', (c) => synced(c)?.status === 'True');
    const uid = config.metadata.uid ?? '';
    expect(synced(config)).toMatchObject({ status: 'True', reason: 'ReconcileSuccess' });
    expect(config.status?.workloads).toEqual([
      {
        componentName: 'zookeeper',
        componentRevisionName: 'zookeeper-v1',
        workloadRef,
        traits: [
          { traitRef: scaleRef, status: 'applied' },
          { traitRef: rollingRef, status: 'applied' },
        ],
      },
    ]);

    const workload = await read(ZOOKEEPER_WORKLOAD, 'zookeeper');
    expect(ownedByApp(workload, uid)).toBe(true);
    expect(workload?.metadata.labels).toEqual(oamLabels('WORKLOAD'));
    expect(workload?.spec).toMatchObject({ replicas: 3, config: { tickTime: 2000 } });
    // The Component leaves spec.replicas out, so it stays free for the scale trait's controller to own.
    const applied = workload?.metadata.managedFields?.find((entry) => entry.manager === 'zk-oam-appconfig' && entry.operation === 'Apply');
    expect(JSON.stringify(applied?.fieldsV1)).toContain('"f:tickTime"');
    expect(JSON.stringify(applied?.fieldsV1)).not.toContain('"f:replicas"');

    for (const [kind, ref, spec] of [
      [ZOOKEEPER_SCALE, scaleRef, { replicas: 3, workloadRef }],
      [ZOOKEEPER_ROLLING, rollingRef, { maxUnavailable: 1, workloadRef }],
    ] as const) {
      const trait = await read(kind, ref.name);
      expect(ownedByApp(trait, uid)).toBe(true);
      expect(trait?.metadata.labels).toEqual(oamLabels('TRAIT'));
      expect(trait?.spec).toMatchObject(spec);
      // No scale or rolling controller runs here: the trait CRs wait, untouched.
      expect(trait?.status).toBeUndefined();
    }

    const ready = await waitFor('the rendered workload to be Ready', () => workloads.get(namespace, 'zookeeper'), isReady, ENSEMBLE_TIMEOUT_MS);
    expect(ready.status?.members).toHaveLength(3);
    expect(await notes(APP)).toEqual(
      expect.arrayContaining([
        { type: 'Normal', reason: 'Created', note: 'Created ZookeeperWorkload zookeeper' },
        { type: 'Normal', reason: 'Created', note: 'Created ZookeeperScale zookeeper-scale' },
        { type: 'Normal', reason: 'Created', note: 'Created ZookeeperRolling zookeeper-rolling' },
      ]),
    );
  });

  it('re-renders the workload when a parameter value changes and when the Component changes', async () => {
    await patchJson('applicationconfiguration', APP, [{ op: 'replace', path: '/spec/components/0/parameterValues/0/value', value: 2500 }]);
    await waitFor('tickTime 2500 on the workload', () => read(ZOOKEEPER_WORKLOAD, 'zookeeper'), (w) => z.looseObject({ config: z.looseObject({ tickTime: z.literal(2500) }) }).safeParse(w?.spec).success, 60_000);

    await kubectl(bed, ['patch', 'component', 'zookeeper', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { workload: { spec: { config: { maxClientCnxns: 100 } } } } })]);
    const changed = await waitFor('the Component change on the workload', () => read(ZOOKEEPER_WORKLOAD, 'zookeeper'), (w) => w?.metadata.labels?.['app.oam.dev/revision'] === 'zookeeper-v2', 60_000);
    expect(changed?.spec).toMatchObject({ config: { tickTime: 2500, maxClientCnxns: 100 } });
    expect(changed?.metadata.labels).toEqual(oamLabels('WORKLOAD', 'zookeeper-v2'));
    const config = await waitSynced('the status to name the new revision', (c) => c.status?.workloads?.[0]?.componentRevisionName === 'zookeeper-v2');
    expect(synced(config)?.status).toBe('True');
    expect((await notes(APP)).map((event) => event.note)).toContain('Updated ZookeeperWorkload zookeeper');
  });

  it('deletes the rolling trait CR when the trait is removed from the spec, and nothing else', async () => {
    await patchJson('applicationconfiguration', APP, [{ op: 'remove', path: '/spec/components/0/traits/1' }]);

    await waitFor('the ZookeeperRolling to be deleted', () => read(ZOOKEEPER_ROLLING, rollingRef.name), (trait) => trait === undefined, 60_000);
    expect(await read(ZOOKEEPER_SCALE, scaleRef.name)).toBeDefined();
    expect(await read(ZOOKEEPER_WORKLOAD, 'zookeeper')).toBeDefined();
    const config = await waitSynced('the status without the rolling trait', (c) => c.status?.workloads?.[0]?.traits?.length === 1);
    expect(config.status?.workloads?.[0]?.traits).toEqual([{ traitRef: scaleRef, status: 'applied' }]);
    expect(await notes(APP)).toContainEqual({ type: 'Normal', reason: 'Deleted', note: 'Deleted ZookeeperRolling zookeeper-rolling (no longer in the spec)' });
  });

  it('reports an unknown component and an invalid parameter with a condition and a Warning Event, and stays up', async () => {
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: missing-component }
spec:
  components: [{ componentName: nope }]
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: bad-parameter }
spec:
  components: [{ componentName: zookeeper, parameterValues: [{ name: replicas, value: 5 }] }]
`);
    for (const [name, reason, message] of [
      ['missing-component', 'ComponentNotFound', 'Component nope is not in this namespace'],
      ['bad-parameter', 'InvalidParameter', 'Component zookeeper: parameter(s) replicas not declared (declared: tickTime)'],
    ] as const) {
      const config = await waitSynced(`${name} to be reported`, (c) => synced(c)?.status === 'False', name);
      expect(synced(config)).toMatchObject({ status: 'False', reason, message });
      expect(config.status?.status).toBe('error');
      const events = await waitFor(`the ${reason} Event`, () => notes(name), (list) => list.some((e) => e.reason === reason), 30_000);
      expect(events).toContainEqual({ type: 'Warning', reason, note: message });
    }
    expect(appconfigController?.running()).toBe(true);
    expect(synced(await appConfig())?.status).toBe('True');
  });

  it('renders any kind with a definition (a ConfigMap, allowed by an aggregated ClusterRole) and reports traits without a definition or not applicable', async () => {
    await kubectl(bed, ['apply', '--server-side', '-f', '-'], `
apiVersion: core.oam.dev/v1alpha2
kind: WorkloadDefinition
metadata: { name: configmaps }
spec: { definitionRef: { name: configmaps } }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: test-appconfig-configmaps
  labels: { oam.zkoam.dev/aggregate-to-appconfig: "true" }
rules:
  - { apiGroups: [""], resources: [configmaps], verbs: [get, create, patch, delete] }
`);
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: settings }
spec:
  workload: { apiVersion: v1, kind: ConfigMap, data: { mode: fast } }
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: odd-traits }
spec:
  components:
    - componentName: settings
      traits:
        - trait: { apiVersion: scale.zookeeper.zkoam.dev/v1alpha1, kind: ZookeeperScale, spec: { replicas: 3 } }
        - trait: { apiVersion: v1, kind: Secret, metadata: { name: settings-secret } }
`);
    const notApplicable = 'trait ZookeeperScale applies to zookeeperworkloads.workload.zookeeper.zkoam.dev, not to workload kind ConfigMap';
    const noDefinition = 'no TraitDefinition secrets registers trait kind Secret';
    const config = await waitSynced('odd-traits to report its traits', (c) => synced(c)?.reason === 'TraitNotApplicable', 'odd-traits');
    expect(synced(config)?.message).toBe(`${notApplicable}; ${noDefinition}`);
    expect(config.status?.workloads).toEqual([
      {
        componentName: 'settings',
        componentRevisionName: 'settings-v1',
        workloadRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' },
        traits: [
          { traitRef: { apiVersion: ZOOKEEPER_SCALE.apiVersion, kind: ZOOKEEPER_SCALE.kind, name: 'settings-zookeeperscale' }, status: 'error', message: notApplicable },
          { traitRef: { apiVersion: 'v1', kind: 'Secret', name: 'settings-secret' }, status: 'error', message: noDefinition },
        ],
      },
    ]);
    const configMap = await read(CONFIG_MAP, 'settings');
    expect(configMap?.data).toEqual({ mode: 'fast' });
    expect(ownedByApp(configMap, config.metadata.uid ?? '')).toBe(true);
    expect(await read(ZOOKEEPER_SCALE, 'settings-zookeeperscale')).toBeUndefined();
    expect(await read({ group: '', version: 'v1', plural: 'secrets' }, 'settings-secret')).toBeUndefined();
    const events = await waitFor('both Warning Events', () => notes('odd-traits'), (list) => list.filter((e) => e.type === 'Warning').length >= 2, 30_000);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'Warning', reason: 'TraitNotApplicable', note: notApplicable },
        { type: 'Warning', reason: 'TraitDefinitionNotFound', note: noDefinition },
      ]),
    );
    expect(appconfigController?.running()).toBe(true);
  });

  it("passes its labels and annotations to what it renders, and keeps the workload status another controller writes", async () => {
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: tagged }
spec:
  workload: { apiVersion: v1, kind: ConfigMap, metadata: { labels: { team: data } }, data: { mode: slow } }
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata:
  name: labelled
  labels: { team: payments, env: prod }
  annotations: { owner: sre@example.com, kubectl.kubernetes.io/last-applied-configuration: "{}" }
spec:
  components: [{ componentName: tagged }]
`);
    await waitSynced('labelled to be Synced', (c) => synced(c)?.status === 'True', 'labelled');
    const configMap = z.looseObject({ metadata: z.looseObject({ annotations: z.record(z.string(), z.string()).optional() }) }).parse(await read(CONFIG_MAP, 'tagged'));
    // The template's own label wins over the ApplicationConfiguration's.
    expect((await read(CONFIG_MAP, 'tagged'))?.metadata.labels).toMatchObject({ team: 'data', env: 'prod', 'app.oam.dev/name': 'labelled' });
    expect(configMap.metadata.annotations).toMatchObject({ owner: 'sre@example.com' });
    expect(configMap.metadata.annotations).not.toHaveProperty(['kubectl.kubernetes.io/last-applied-configuration']);
    // A health scope or trait controller reports into the status; the next reconcile (a label change) keeps it.
    await kubectl(bed, ['patch', 'applicationconfiguration', 'labelled', '-n', namespace, '--subresource=status', '--type=json', '-p', JSON.stringify([{ op: 'add', path: '/status/workloads/0/status', value: 'healthy' }])]);
    await kubectl(bed, ['label', 'applicationconfiguration', 'labelled', '-n', namespace, 'env=staging', '--overwrite']);
    await waitFor('the new label on the ConfigMap', () => read(CONFIG_MAP, 'tagged'), (object) => object?.metadata.labels?.['env'] === 'staging', 30_000);
    expect((await appConfig('labelled')).status?.workloads?.[0]?.status).toBe('healthy');
  });

  it('keeps a ControllerRevision per Component spec change, names the newest in the Component status, and renders the revision an entry pins', async () => {
    const component = (mode: string): string => `
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: versioned }
spec:
  workload: { apiVersion: v1, kind: ConfigMap, data: { mode: ${mode} } }
  parameters: [{ name: instance, fieldPaths: [metadata.name], required: true }]
`;
    const componentStatus = async (): Promise<{ latestRevision?: { name: string; revision: number }; observedGeneration?: number } | undefined> =>
      z.looseObject({ status: z.looseObject({ latestRevision: z.object({ name: z.string(), revision: z.int() }).optional(), observedGeneration: z.int().optional() }).optional() })
        .parse(await api.request('GET', path(OAM_COMPONENT, 'versioned'))).status;
    const revision = async (name: string): Promise<unknown> => api.request('GET', path(CONTROLLER_REVISION, name));
    const latest = (name: string): Promise<unknown> => waitFor(`Component versioned to record ${name}`, componentStatus, (status) => status?.latestRevision?.name === name, 30_000);

    await apply(component('one'));
    await latest('versioned-v1');
    const componentUid = (await read(OAM_COMPONENT, 'versioned'))?.metadata.uid;
    expect(await revision('versioned-v1')).toMatchObject({
      metadata: {
        labels: { 'controller.oam.dev/component': 'versioned' },
        ownerReferences: [{ kind: 'Component', name: 'versioned', uid: componentUid, controller: true }],
      },
      revision: 1,
      data: { kind: 'Component', metadata: { name: 'versioned' }, spec: { workload: { data: { mode: 'one' } } } },
    });

    await apply(component('two'));
    expect(await latest('versioned-v2')).toMatchObject({ latestRevision: { name: 'versioned-v2', revision: 2 }, observedGeneration: 2 });
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: pinned }
spec:
  components: [{ revisionName: versioned-v1, parameterValues: [{ name: instance, value: versioned-old }] }]
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: following }
spec:
  components: [{ componentName: versioned, parameterValues: [{ name: instance, value: versioned-new }] }]
`);
    const pinned = await waitSynced('pinned to be Synced', (c) => synced(c)?.status === 'True', 'pinned');
    await waitSynced('following to be Synced', (c) => synced(c)?.status === 'True', 'following');
    expect(pinned.status?.workloads?.[0]).toMatchObject({ componentName: 'versioned', componentRevisionName: 'versioned-v1' });
    expect(await read(CONFIG_MAP, 'versioned-old')).toMatchObject({ data: { mode: 'one' }, metadata: { labels: { 'app.oam.dev/revision': 'versioned-v1' } } });
    expect(await read(CONFIG_MAP, 'versioned-new')).toMatchObject({ data: { mode: 'two' }, metadata: { labels: { 'app.oam.dev/revision': 'versioned-v2' } } });

    // A third spec: the entry that follows the Component moves to v3; the pinned one stays on v1.
    await apply(component('three'));
    await latest('versioned-v3');
    await waitFor('versioned-new to carry v3', () => read(CONFIG_MAP, 'versioned-new'), (object) => object?.data?.['mode'] === 'three', 30_000);
    expect((await read(CONFIG_MAP, 'versioned-new'))?.metadata.labels?.['app.oam.dev/revision']).toBe('versioned-v3');
    expect((await read(CONFIG_MAP, 'versioned-old'))?.data).toEqual({ mode: 'one' });
    expect(await revision('versioned-v2')).toMatchObject({ revision: 2, data: { spec: { workload: { data: { mode: 'two' } } } } });
    // The status is written after the objects are applied, so the ConfigMap can show v3 before the status names it.
    await waitSynced('following to name versioned-v3', (c) => c.status?.workloads?.[0]?.componentRevisionName === 'versioned-v3', 'following');
  });

  it('gives each revision a workload of its own under a revisionEnabled trait, keeps the earlier ones as historyWorkloads, and drops one once deleted', async () => {
    const component = (mode: string): string => `
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: canary }
spec:
  workload: { apiVersion: v1, kind: ConfigMap, data: { mode: ${mode} } }
`;
    await kubectl(bed, ['apply', '--server-side', '-f', '-'], `
apiVersion: core.oam.dev/v1alpha2
kind: TraitDefinition
metadata: { name: configmaps }
spec: { definitionRef: { name: configmaps }, revisionEnabled: true }
`);
    await apply(`${component('a')}
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: rollout }
spec:
  components:
    - componentName: canary
      traits: [{ trait: { apiVersion: v1, kind: ConfigMap, metadata: { name: canary-route }, data: { weight: "100" } } }]
`);
    const first = await waitSynced('rollout to render canary-v1', (c) => synced(c)?.status === 'True' && c.status?.workloads?.[0]?.workloadRef?.name === 'canary-v1', 'rollout');
    expect(first.status?.historyWorkloads).toBeUndefined();
    expect((await read(CONFIG_MAP, 'canary-v1'))?.data).toEqual({ mode: 'a' });

    await apply(component('b'));
    const second = await waitSynced('rollout to render canary-v2', (c) => c.status?.workloads?.[0]?.workloadRef?.name === 'canary-v2', 'rollout');
    const v1 = await read(CONFIG_MAP, 'canary-v1');
    expect(v1?.data).toEqual({ mode: 'a' });
    expect((await read(CONFIG_MAP, 'canary-v2'))?.data).toEqual({ mode: 'b' });
    expect(second.status?.workloads?.[0]).toMatchObject({ componentRevisionName: 'canary-v2', traits: [{ traitRef: { kind: 'ConfigMap', name: 'canary-route' }, status: 'applied' }] });
    expect(second.status?.historyWorkloads).toEqual([{ revision: 'canary-v1', workloadRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'canary-v1', uid: v1?.metadata.uid } }]);

    // A rollout trait deletes the old revision once traffic has moved; the next reconcile (here, a label) drops it.
    await kubectl(bed, ['delete', 'configmap', 'canary-v1', '-n', namespace]);
    await kubectl(bed, ['label', 'applicationconfiguration', 'rollout', '-n', namespace, 'moved=true']);
    await waitSynced('rollout to drop canary-v1 from its history', (c) => c.status?.historyWorkloads === undefined, 'rollout');
    expect((await read(CONFIG_MAP, 'canary-v2'))?.data).toEqual({ mode: 'b' });
  });

  it('keeps the v1alpha2 fields (dataInputs, dataOutputs, scopes) and reports an input whose output is not rendered', async () => {
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: wired }
spec:
  components:
    - componentName: settings
      parameterValues: [{ name: flavour, value: plain }]
      dataOutputs: [{ name: mode, fieldPath: data.mode, conditions: [{ op: notEmpty, fieldPath: data.mode }] }]
      scopes: [{ scopeRef: { apiVersion: core.oam.dev/v1alpha2, kind: HealthScope, name: health } }]
    - componentName: zookeeper
      dataInputs: [{ valueFrom: { dataOutputName: mode }, toFieldPaths: [spec.config.mode] }]
`);
    const config = await waitSynced('wired to be reported', (c) => synced(c)?.reason === 'InvalidParameter', 'wired');
    expect(config.spec.components[0]?.dataOutputs).toEqual([{ name: 'mode', fieldPath: 'data.mode', conditions: [{ op: 'notEmpty', fieldPath: 'data.mode' }] }]);
    expect(config.spec.components[0]?.scopes).toEqual([{ scopeRef: { apiVersion: 'core.oam.dev/v1alpha2', kind: 'HealthScope', name: 'health' } }]);
    expect(config.spec.components[1]?.dataInputs).toEqual([{ valueFrom: { dataOutputName: 'mode' }, toFieldPaths: ['spec.config.mode'] }]);
    expect(synced(config)?.message).toContain('; ZookeeperWorkload zookeeper takes data output "mode", whose object is not rendered');
    expect(config.status?.workloads?.map((workload) => workload.componentName)).toEqual(['settings', 'zookeeper']);
  });

  it('tells scopes of their workloads at the ScopeDefinition\'s workloadRefsPath, waits for a missing scope, and leaves them when removed or deleted', async () => {
    await kubectl(bed, ['apply', '--server-side', '-f', '-'], SCOPE_KIND);
    await kubectl(bed, ['wait', '--for=condition=Established', 'crd/teamscopes.example.zkoam.dev', '--timeout=30s']);
    await kubectl(bed, ['apply', '--server-side', '-f', '-'], SCOPE_REGISTRATION);
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: member }
spec:
  workload: { apiVersion: v1, kind: ConfigMap, data: { role: member } }
---
apiVersion: example.zkoam.dev/v1
kind: TeamScope
metadata: { name: platform }
spec: { workloadRefs: [{ apiVersion: v1, kind: ConfigMap, name: someone-else }] }
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: scoped }
spec:
  components:
    - componentName: member
      scopes:
        - scopeRef: { apiVersion: example.zkoam.dev/v1, kind: TeamScope, name: platform }
        - scopeRef: { apiVersion: example.zkoam.dev/v1, kind: TeamScope, name: storage }
`);
    const member = { apiVersion: 'v1', kind: 'ConfigMap', name: 'member' };
    const someoneElse = { apiVersion: 'v1', kind: 'ConfigMap', name: 'someone-else' };
    const platform = { apiVersion: 'example.zkoam.dev/v1', kind: 'TeamScope', name: 'platform' };
    const storage = { ...platform, name: 'storage' };
    const waiting = await waitSynced('scoped to wait for scope storage', (c) => synced(c)?.reason === 'ScopeNotFound', 'scoped');
    expect(synced(waiting)?.message).toBe('scope TeamScope storage does not exist, so ConfigMap member is not in it yet');
    expect(waiting.metadata.finalizers).toContain('scope.finalizer.core.oam.dev');
    expect(waiting.status?.workloads?.[0]?.scopes).toEqual([{ scopeRef: platform }, { scopeRef: storage }]);
    expect((await read(TEAM_SCOPE, 'platform'))?.spec?.['workloadRefs']).toEqual([someoneElse, member]);
    expect(await read(CONFIG_MAP, 'member')).toBeDefined();

    await apply('apiVersion: example.zkoam.dev/v1\nkind: TeamScope\nmetadata: { name: storage }\nspec: {}\n');
    await waitSynced('scoped to be Synced once storage exists', (c) => synced(c)?.status === 'True', 'scoped');
    expect((await read(TEAM_SCOPE, 'storage'))?.spec?.['workloadRefs']).toEqual([member]);

    await patchJson('applicationconfiguration', 'scoped', [{ op: 'remove', path: '/spec/components/0/scopes/0' }]);
    await waitSynced('scoped to leave platform', (c) => c.status?.workloads?.[0]?.scopes?.length === 1, 'scoped');
    expect((await read(TEAM_SCOPE, 'platform'))?.spec?.['workloadRefs']).toEqual([someoneElse]);

    await kubectl(bed, ['delete', 'applicationconfiguration', 'scoped', '-n', namespace, '--wait=true', '--timeout=60s']);
    expect((await read(TEAM_SCOPE, 'storage'))?.spec?.['workloadRefs']).toEqual([]);
    expect((await read(TEAM_SCOPE, 'platform'))?.spec?.['workloadRefs']).toEqual([someoneElse]);
  });

  it('holds an object back until the data output it takes is ready, says why in status.dependency, then applies it with the value', async () => {
    const source = (state: string): string => `
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: source }
spec:
  workload: { apiVersion: v1, kind: ConfigMap, data: { state: ${state}, endpoint: "zk-client:2181" } }
`;
    await apply(`${source('pending')}
---
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: consumer }
spec:
  workload: { apiVersion: v1, kind: ConfigMap, data: { role: client } }
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: chained }
spec:
  components:
    - componentName: source
      dataOutputs: [{ name: endpoint, fieldPath: data.endpoint, conditions: [{ op: eq, value: ready, fieldPath: data.state }] }]
    - componentName: consumer
      dataInputs: [{ valueFrom: { dataOutputName: endpoint }, toFieldPaths: [data.upstream] }]
`);
    const waiting = await waitSynced('chained to list its unsatisfied input', (c) => c.status?.dependency?.unsatisfied?.[0]?.reason === 'got(pending) expected to be ready', 'chained');
    expect(waiting.status?.dependency?.unsatisfied).toEqual([
      {
        reason: 'got(pending) expected to be ready',
        from: { apiVersion: 'v1', kind: 'ConfigMap', name: 'source', fieldPath: 'data.endpoint' },
        to: { apiVersion: 'v1', kind: 'ConfigMap', name: 'consumer', fieldPaths: ['data.upstream'] },
      },
    ]);
    expect(synced(waiting)?.status).toBe('True');
    expect((await read(CONFIG_MAP, 'source'))?.data).toEqual({ state: 'pending', endpoint: 'zk-client:2181' });
    expect(await read(CONFIG_MAP, 'consumer')).toBeUndefined();

    await apply(source('ready'));
    await waitFor('consumer applied with the endpoint', () => read(CONFIG_MAP, 'consumer'), (object) => object?.data?.['upstream'] === 'zk-client:2181', 30_000);
    expect((await read(CONFIG_MAP, 'consumer'))?.data).toEqual({ role: 'client', upstream: 'zk-client:2181' });
    await waitSynced('chained to have no unsatisfied input left', (c) => c.status?.dependency === undefined, 'chained');
  });

  it('holds a trait back until its ensemble reports Running, then gives it the client connect string the workload reports', async () => {
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: gated-zk }
spec:
  workload:
    apiVersion: workload.zookeeper.zkoam.dev/v1alpha1
    kind: ZookeeperWorkload
    spec:
      replicas: 1
      resources: { requests: { cpu: 100m, memory: 256Mi }, limits: { memory: 256Mi } }
      storage: { size: 1Gi, reclaimPolicy: Delete }
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: gated }
spec:
  components:
    - componentName: gated-zk
      dataOutputs:
        - name: endpoint
          fieldPath: status.clientEndpoint.connectString
          conditions: [{ op: eq, value: Running, fieldPath: status.phase }]
      traits:
        - trait: { apiVersion: rolling.zookeeper.zkoam.dev/v1alpha1, kind: ZookeeperRolling, metadata: { name: gated-roll }, spec: { maxUnavailable: 1 } }
          dataInputs: [{ valueFrom: { dataOutputName: endpoint }, toFieldPaths: ["metadata.annotations[zkoam.dev/connect-string]"] }]
`);
    const held = await waitSynced('the rolling trait held for the ensemble', (c) => (c.status?.dependency?.unsatisfied ?? []).length > 0, 'gated');
    expect(held.status?.dependency?.unsatisfied).toEqual([
      expect.objectContaining({
        from: expect.objectContaining({ kind: ZOOKEEPER_WORKLOAD.kind, name: 'gated-zk', fieldPath: 'status.clientEndpoint.connectString' }),
        to: expect.objectContaining({ kind: ZOOKEEPER_ROLLING.kind, name: 'gated-roll' }),
      }),
    ]);
    expect(await read(ZOOKEEPER_ROLLING, 'gated-roll')).toBeUndefined();
    const ensemble = await workloads.get(namespace, 'gated-zk');
    expect(ensemble?.status?.phase).not.toBe('Running');

    const running = await waitFor('the gated ensemble Running', () => workloads.get(namespace, 'gated-zk'), (w) => w?.status?.phase === 'Running', ENSEMBLE_TIMEOUT_MS);
    const connectString = running?.status?.clientEndpoint?.connectString;
    expect(connectString).toMatch(/:2181$/);
    const trait = await waitFor('the rolling trait applied', () => read(ZOOKEEPER_ROLLING, 'gated-roll'), (t) => t !== undefined, 60_000);
    expect(trait?.metadata.annotations?.['zkoam.dev/connect-string']).toBe(connectString);
    const released = await waitSynced('the dependency satisfied', (c) => c.status?.dependency === undefined && synced(c)?.status === 'True', 'gated');
    expect(released.status?.workloads?.[0]?.traits).toEqual([{ traitRef: { apiVersion: ZOOKEEPER_ROLLING.apiVersion, kind: ZOOKEEPER_ROLLING.kind, name: 'gated-roll' }, status: 'applied' }]);
  });

  it('gives a client application and its znode, declared in one ApplicationConfiguration, a Ready znode whose published connect string a client writes through', async () => {
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: kafka-zk }
spec:
  workload:
    apiVersion: znode.zookeeper.zkoam.dev/v1alpha1
    kind: ZookeeperZnode
    spec: { workloadRef: { name: gated-zk }, path: /kafka }
---
apiVersion: core.oam.dev/v1alpha2
kind: Component
metadata: { name: kafka }
spec:
  workload: { apiVersion: v1, kind: ConfigMap, data: { broker.id: "0" } }
---
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: kafka }
spec:
  components:
    - componentName: kafka-zk
      dataOutputs: [{ name: kafka-zk-connect, fieldPath: status.connectString }]
    - componentName: kafka
      dataInputs: [{ valueFrom: { dataOutputName: kafka-zk-connect }, toFieldPaths: ["data[zookeeper.connect]"] }]
`);
    const znodes = new ZnodeClient(bed);
    const znode = await waitFor('the znode Ready', () => znodes.get(namespace, 'kafka-zk').catch(() => undefined), (z) => z !== undefined && znodeCondition(z, 'Ready')?.status === 'True', ENSEMBLE_TIMEOUT_MS);
    expect(ownedByApp(await read(ZOOKEEPER_ZNODE, 'kafka-zk'), (await appConfig('kafka')).metadata.uid ?? '')).toBe(true);
    const connectString = `gated-zk-client.${namespace}.svc.cluster.local:2181/kafka`;
    expect(znode?.status).toMatchObject({ path: '/kafka', exists: true, connectString });
    const settings = await waitFor('the application given the connect string', () => read(CONFIG_MAP, 'kafka'), (c) => c?.data?.['zookeeper.connect'] !== undefined, 60_000);
    expect(settings?.data).toEqual({ 'broker.id': '0', 'zookeeper.connect': connectString });
    const config = await waitSynced('the ApplicationConfiguration Synced', (c) => c.status?.dependency === undefined && synced(c)?.status === 'True', 'kafka');
    expect(config.status?.workloads?.map((entry) => entry.componentName)).toEqual(['kafka-zk', 'kafka']);
    const discovery = await readDiscovery(workloads, namespace, 'kafka-zk');
    expect(discovery.config[DISCOVERY_CONFIG_KEYS.connectString]).toBe(connectString);

    // The client knows only what the application was given: the connect string, with the path as chroot.
    const given = { config: { [DISCOVERY_CONFIG_KEYS.connectString]: settings?.data?.['zookeeper.connect'] ?? '' }, secret: {} };
    expect((await tenantZkCli(bed, given, ['create', '/brokers', 'kafka'])).output).toContain('Created /brokers');
    const root = { config: { [DISCOVERY_CONFIG_KEYS.connectString]: `gated-zk-client.${namespace}.svc.cluster.local:2181` }, secret: {} };
    expect((await tenantZkCli(bed, root, ['get', '/kafka/brokers'])).output).toContain('kafka');

    await kubectl(bed, ['delete', 'applicationconfiguration', 'kafka', '-n', namespace, '--wait=false']);
    await waitFor('the znode gone, its path removed', () => znodes.gone(namespace, 'kafka-zk'), (gone) => gone, 120_000);
    expect((await tenantZkCli(bed, root, ['stat', '/kafka'])).output).toContain('Node does not exist');
  });

  it('never takes a field another manager owns: the conflict is reported and the other value stays', async () => {
    await kubectl(bed, ['apply', '--server-side', '--force-conflicts', '--field-manager=someone-else', '-n', namespace, '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\ndata: { mode: slow }\n');
    // A Component change makes the controller apply again at once.
    await kubectl(bed, ['patch', 'component', 'settings', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { workload: { data: { extra: 'yes' } } } })]);

    // The controller retries odd-traits every 2 s, so the conflict may show first for the Component's old revision.
    const config = await waitSynced(
      'the conflict to be reported for the changed Component',
      (c) => synced(c)?.reason === 'FieldConflict' && c.status?.workloads?.[0]?.componentRevisionName === 'settings-v2',
      'odd-traits',
    );
    expect(synced(config)?.message).toMatch(/^ConfigMap settings: .*conflict.*someone-else.*\.data\.mode/);
    expect((await read(CONFIG_MAP, 'settings'))?.data).toEqual({ mode: 'slow' });
    expect(await notes('odd-traits')).toContainEqual(expect.objectContaining({ type: 'Warning', reason: 'FieldConflict' }));
  });

  it('garbage-collects the workload, the trait and then the ensemble when the ApplicationConfiguration is deleted', async () => {
    const statefulSets = { group: 'apps', version: 'v1', plural: 'statefulsets' };
    expect(await read(statefulSets, 'zookeeper')).toBeDefined();
    expect(await read(ZOOKEEPER_SCALE, scaleRef.name)).toBeDefined();
    await kubectl(bed, ['delete', 'applicationconfiguration', APP, '-n', namespace, '--wait=false']);

    await waitFor('the workload and the scale trait to be gone', async () => [await read(ZOOKEEPER_WORKLOAD, 'zookeeper'), await read(ZOOKEEPER_SCALE, scaleRef.name)], (left) => left.every((object) => object === undefined), 120_000);
    await waitFor('the StatefulSet to be gone', () => read(statefulSets, 'zookeeper'), (set) => set === undefined, 120_000);
    expect(appconfigController?.running()).toBe(true);
  });

  it('runs as two replicas under leader election: the standby takes over when the leader stops', async () => {
    const leader = appconfigController;
    if (leader === undefined) throw new Error('the appconfig controller has not been started');
    const standby = await startControllerProcess({ bed, name: 'appconfig', env: APPCONFIG_ENV });
    await waitControllerReady(standby);
    const holder = async (): Promise<string | undefined> =>
      leaseSchema.parse(await api.request('GET', '/apis/coordination.k8s.io/v1/namespaces/zk-oam-system/leases/zk-oam-appconfig')).spec.holderIdentity;
    expect(await holder()).toMatch(new RegExp(`-${String(leader.pid())}$`));

    await stopCleanly(leader);
    appconfigController = standby;
    await waitFor('the standby to hold the lease', holder, (identity) => identity?.endsWith(`-${String(standby.pid())}`) ?? false, 60_000);
    await apply(`
apiVersion: core.oam.dev/v1alpha2
kind: ApplicationConfiguration
metadata: { name: after-failover }
spec:
  components: [{ componentName: nope }]
`);
    const config = await waitSynced('the new leader to reconcile', (c) => synced(c)?.reason === 'ComponentNotFound', 'after-failover');
    expect(synced(config)?.message).toBe('Component nope is not in this namespace');
  });
});
