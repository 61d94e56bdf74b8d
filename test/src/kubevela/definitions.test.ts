// The KubeVela definitions in deploy/kubevela, evaluated by the real cue CLI the way KubeVela's renderer evaluates them
// (template, `context` and `parameter` in one file), render the same ZooKeeper objects as the appconfig controller
// renders from the OAM v1alpha2 samples, enforce our schemas' bounds and closed structs, and read our conditions
// into health and status.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  applicationConfigurationSchema,
  componentSchema,
  rollingSpecSchema,
  scaleSpecSchema,
  traitDefinitionSchema,
  workloadDefinitionSchema,
  workloadSpecSchema,
  ZOOKEEPER_ROLLING,
  ZOOKEEPER_SCALE,
  ZOOKEEPER_WORKLOAD,
  type KindInfo,
} from '@zk-oam/apis';
import { renderApplication, type RenderedObject } from '@zk-oam/appconfig';
import { evaluate } from './cue-eval.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string): string => readFileSync(`${repoRoot}/${path}`, 'utf8');

interface Definition {
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly appliesToWorkloads?: string[];
    readonly status: { readonly healthPolicy: string; readonly customStatus: string };
    readonly schematic: { readonly cue: { readonly template: string } };
  };
}

const definition = (name: string): Definition => parse(read(`deploy/kubevela/${name}.yaml`)) as Definition;

interface ApplicationComponent {
  readonly name: string;
  readonly type: string;
  readonly properties: Record<string, unknown>;
  readonly traits: { readonly type: string; readonly properties: Record<string, unknown> }[];
}

const application = parse(read('deploy/samples/kubevela-application.yaml')) as {
  metadata: { name: string };
  spec: { components: ApplicationComponent[] };
};
function onlyComponent(): ApplicationComponent {
  const [component] = application.spec.components;
  if (component === undefined) throw new Error('deploy/samples/kubevela-application.yaml has no component');
  return component;
}
const sampleComponent = onlyComponent();
const traitProperties = (type: string): Record<string, unknown> => sampleComponent.traits.find((trait) => trait.type === type)?.properties ?? {};

// What KubeVela puts in `context` for a component of the sample Application in namespace `apps`.
const context = { name: sampleComponent.name, namespace: 'apps', appName: application.metadata.name, appRevision: `${application.metadata.name}-v1` };

async function exported(name: string, ctx: unknown, parameter: unknown, expression: string): Promise<Record<string, unknown>> {
  const result = await evaluate(definition(name).spec.schematic.cue.template, ctx, parameter, expression);
  if (!result.ok) throw new Error(`cue refused ${name}: ${result.error}`);
  return result.value as Record<string, unknown>;
}

async function refusal(name: string, parameter: unknown, expression: string): Promise<string> {
  const output = name === 'zookeeper' ? {} : { output: await exported('zookeeper', context, sampleComponent.properties, 'output') };
  const result = await evaluate(definition(name).spec.schematic.cue.template, { ...context, ...output }, parameter, expression);
  if (result.ok) throw new Error(`cue accepted ${JSON.stringify(parameter)} for ${name}`);
  return result.error;
}

/** The objects the appconfig controller renders from deploy/samples/component.yaml and application-configuration.yaml. */
function appconfigRendered(): RenderedObject[] {
  const asResource = (kind: KindInfo) => ({ group: kind.group, version: kind.version, plural: kind.plural, kind: kind.kind, namespaced: true });
  const documents = parseAllDocuments(read('deploy/oam/definitions.yaml')).map((document) => document.toJS() as { kind: string });
  const component = componentSchema.parse({ ...parse(read('deploy/samples/component.yaml')), metadata: { name: 'zookeeper', namespace: 'apps' } });
  const appConfig = applicationConfigurationSchema.parse({
    ...parse(read('deploy/samples/application-configuration.yaml')),
    metadata: { name: 'example', namespace: 'apps', uid: 'uid-example' },
  });
  const [rendered] = renderApplication({
    appConfig,
    components: new Map([['zookeeper', component]]),
    revisions: new Map(),
    catalog: {
      resources: [ZOOKEEPER_WORKLOAD, ZOOKEEPER_SCALE, ZOOKEEPER_ROLLING].map(asResource),
      workloadDefinitions: documents.filter((doc) => doc.kind === 'WorkloadDefinition').map((doc) => workloadDefinitionSchema.parse(doc)),
      traitDefinitions: documents.filter((doc) => doc.kind === 'TraitDefinition').map((doc) => traitDefinitionSchema.parse(doc)),
      scopeDefinitions: [],
    },
  });
  if (rendered === undefined) throw new Error('the sample ApplicationConfiguration rendered nothing');
  return [rendered.workload, ...rendered.traits].map((outcome) => {
    if (outcome.kind !== 'rendered') throw new Error(`appconfig refused the samples: ${outcome.message}`);
    return outcome;
  });
}

function specOf(object: Record<string, unknown>): unknown {
  return object['spec'];
}

describe('the sample Application through the KubeVela definitions', () => {
  it('renders the same ZookeeperWorkload, ZookeeperScale and ZookeeperRolling as the appconfig controller renders from the OAM samples', async () => {
    const workload = await exported('zookeeper', context, sampleComponent.properties, 'output');
    const traitContext = { ...context, output: { ...workload, metadata: { name: context.name, namespace: context.namespace } } };
    const scale = await exported('zookeeper-scale', traitContext, traitProperties('zookeeper-scale'), 'outputs.scale');
    const rolling = await exported('zookeeper-rolling', traitContext, traitProperties('zookeeper-rolling'), 'outputs.rolling');
    const [appWorkload, appScale, appRolling] = appconfigRendered().map((rendered) => rendered.object as Record<string, unknown>);

    expect(workload).toMatchObject({ apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind });
    expect(scale).toMatchObject({ apiVersion: ZOOKEEPER_SCALE.apiVersion, kind: ZOOKEEPER_SCALE.kind, metadata: { name: 'zookeeper-scale' } });
    expect(rolling).toMatchObject({ apiVersion: ZOOKEEPER_ROLLING.apiVersion, kind: ZOOKEEPER_ROLLING.kind, metadata: { name: 'zookeeper-rolling' } });
    expect(appScale?.['metadata']).toMatchObject({ name: 'zookeeper-scale' });
    expect(appRolling?.['metadata']).toMatchObject({ name: 'zookeeper-rolling' });
    // Both sides as the API server stores them: the CRDs' defaults applied.
    expect(workloadSpecSchema.parse(specOf(workload))).toEqual(workloadSpecSchema.parse(specOf(appWorkload ?? {})));
    expect(scaleSpecSchema.parse(specOf(scale))).toEqual(scaleSpecSchema.parse(specOf(appScale ?? {})));
    expect(rollingSpecSchema.parse(specOf(rolling))).toEqual(rollingSpecSchema.parse(specOf(appRolling ?? {})));
    expect(specOf(scale)).toMatchObject({ replicas: 3, workloadRef: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name: 'zookeeper' } });
  });

  it('leaves the size to the scale trait: the component has no replicas parameter', async () => {
    const error = await refusal('zookeeper', { ...sampleComponent.properties, replicas: 5 }, 'output');
    expect(error).toMatch(/replicas: field not allowed/);
  });
});

describe('parameters are checked as our CRDs check them', () => {
  it('refuses a size above the scale schema bound of 31', async () => {
    expect(await refusal('zookeeper-scale', { replicas: 40 }, 'outputs.scale')).toMatch(/out of bound <=31/);
  });

  it('refuses a misspelt field instead of dropping it', async () => {
    expect(await refusal('zookeeper', { ...sampleComponent.properties, config: { tickTim: 2000 } }, 'output')).toMatch(/tickTim: field not allowed/);
  });

  it('refuses a value outside an enum', async () => {
    expect(await refusal('zookeeper-scale', { replicas: 3, removedMemberVolumePolicy: 'Keep' }, 'outputs.scale')).toMatch(/removedMemberVolumePolicy/);
  });

  it('fills in the schema defaults the user leaves out', async () => {
    const traitContext = { ...context, output: await exported('zookeeper', context, {}, 'output') };
    const scale = await exported('zookeeper-scale', traitContext, { replicas: 5 }, 'outputs.scale');
    expect(specOf(scale)).toEqual(expect.objectContaining(scaleSpecSchema.parse({ replicas: 5, workloadRef: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name: 'zookeeper' } })));
  });
});

describe('the traits apply to the zookeeper component only', () => {
  it.each(['zookeeper-scale', 'zookeeper-rolling', 'zookeeper-backup'])('%s names the component type and the workload kind', (name) => {
    expect(definition(name).spec.appliesToWorkloads).toEqual(['zookeeper', `${ZOOKEEPER_WORKLOAD.plural}.${ZOOKEEPER_WORKLOAD.group}`]);
  });

  it.each([
    ['zookeeper-scale', { replicas: 3 }],
    ['zookeeper-rolling', {}],
    ['zookeeper-backup', { target: { s3: { endpoint: 'https://s3.example', bucket: 'zk-backups', credentialsSecretRef: { name: 's3' } } } }],
  ] as const)('%s reports an error in errs, which fails KubeVela\'s render, on a component that renders a Deployment', async (name, parameter) => {
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: {} };
    expect(await exported(name, { ...context, name: 'web', output: deployment }, parameter, 'errs')).toEqual([
      `${name} applies to zookeeper components (${ZOOKEEPER_WORKLOAD.apiVersion}, Kind=${ZOOKEEPER_WORKLOAD.kind}), not to component web, which renders apps/v1, Kind=Deployment`,
    ]);
    const workload = await exported('zookeeper', context, sampleComponent.properties, 'output');
    expect(await exported(name, { ...context, output: workload }, parameter, 'errs')).toEqual([]);
  });
});

describe('health and status read our conditions', () => {
  const ready = (status: string, message: string) => ({ phase: status === 'True' ? 'Running' : 'Degraded', conditions: [{ type: 'Ready', status, reason: 'Test', message }] });

  async function health(name: string, outputKey: string | undefined, status: unknown): Promise<{ isHealth: unknown; message: unknown }> {
    const live = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'zookeeper' }, ...(status === undefined ? {} : { status }) };
    const ctx = outputKey === undefined ? { ...context, output: live } : { ...context, outputs: { [outputKey]: live } };
    const { healthPolicy, customStatus } = definition(name).spec.status;
    const isHealth = await evaluate(healthPolicy, ctx, {}, 'isHealth');
    const message = await evaluate(customStatus, ctx, {}, 'message');
    if (!isHealth.ok || !message.ok) throw new Error(`cue refused the status of ${name}: ${isHealth.ok ? '' : isHealth.error} ${message.ok ? '' : message.error}`);
    return { isHealth: isHealth.value, message: message.value };
  }

  it.each([
    ['zookeeper', undefined],
    ['zookeeper-scale', 'scale'],
    ['zookeeper-rolling', 'rolling'],
    ['zookeeper-backup', 'backup'],
  ] as const)('%s is healthy only when Ready is True, and says the phase and why', async (name, key) => {
    expect(await health(name, key, ready('True', 'all 3 members serving'))).toEqual({ isHealth: true, message: 'Running: all 3 members serving' });
    expect(await health(name, key, ready('False', 'member zookeeper-1 unreachable'))).toEqual({ isHealth: false, message: 'Degraded: member zookeeper-1 unreachable' });
    expect(await health(name, key, undefined)).toEqual({ isHealth: false, message: 'Pending' });
  });

  it('zookeeper-znode, whose status has no phase, says the Ready reason and why', async () => {
    const znode = (status: string, reason: string, message: string) => ({ conditions: [{ type: 'Ready', status, reason, message }] });
    expect(await health('zookeeper-znode', undefined, znode('True', 'Available', '/kafka exists'))).toEqual({ isHealth: true, message: 'Available: /kafka exists' });
    expect(await health('zookeeper-znode', undefined, znode('False', 'WorkloadNotShared', 'not admitted'))).toEqual({ isHealth: false, message: 'WorkloadNotShared: not admitted' });
    expect(await health('zookeeper-znode', undefined, undefined)).toEqual({ isHealth: false, message: 'Pending' });
  });
});
