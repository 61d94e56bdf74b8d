// Every controller shows a failed step where people look. A ValidatingAdmissionPolicy makes the real apiserver refuse
// one write of each controller (the workload's StatefulSet, the traits' binding of themselves, the workload an
// ApplicationConfiguration renders). Each object then gets a Warning Event naming the step and the apiserver's
// message, and a False condition (Ready, or Synced) whose reason is the Event's; a failure repeating every few
// seconds adds no second Event. The appconfig controller reports a refused object as its own problem (Rejected),
// with the same Event and condition.
import { OAM_APPLICATION_CONFIGURATION, OAM_COMPONENT, OAM_LABELS, ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD, type KindInfo } from '@zk-oam/apis';
import { KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bedWorkloadSpec,
  counterOf,
  eventsAbout,
  installCrds,
  installOam,
  kubectl,
  KubectlError,
  startControllerProcess,
  stopCleanly,
  waitControllerReady,
  waitFor,
  WorkloadClient,
  type ControllerProcess,
} from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const namespace = `failures-${Date.now().toString(36)}`;
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const api = new KubeClient(kubeConfig);
const workloads = new WorkloadClient(bed);
const running: ControllerProcess[] = [];
const REFUSAL = 'refused by the failure-reporting test policy';

/** Refuses, in the test namespace only, writes of objects whose name starts with `refused`. */
function refusingPolicy(): object[] {
  const name = `refuse-${namespace}`;
  const rule = (apiGroups: string[], resources: string[], operations: string[]): object => ({ apiGroups, apiVersions: ['*'], operations, resources });
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            rule(['apps'], ['statefulsets'], ['CREATE', 'UPDATE']),
            rule([ZOOKEEPER_SCALE.group], [ZOOKEEPER_SCALE.plural], ['UPDATE']),
            rule([ZOOKEEPER_ROLLING.group], [ZOOKEEPER_ROLLING.plural], ['UPDATE']),
            rule([ZOOKEEPER_WORKLOAD.group], [ZOOKEEPER_WORKLOAD.plural], ['CREATE']),
          ],
        },
        validations: [
          {
            // A workload is refused only as the appconfig controller renders it (labelled with its component), so the
            // test can still create the workload whose StatefulSet is refused.
            expression:
              "!object.metadata.name.startsWith('refused') || (request.resource.resource == 'zookeeperworkloads' && " +
              `!(has(object.metadata.labels) && '${OAM_LABELS.component}' in object.metadata.labels))`,
            message: REFUSAL,
          },
        ],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: {
        policyName: name,
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } },
      },
    },
  ];
}

/** The apiserver compiles a new policy in the background: it is in force once a server-side dry run is refused. */
async function policyRefuses(): Promise<boolean> {
  const probe = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'refused-probe', namespace },
    spec: {
      selector: { matchLabels: { probe: 'policy' } },
      serviceName: 'probe',
      template: { metadata: { labels: { probe: 'policy' } }, spec: { containers: [{ name: 'probe', image: 'probe' }] } },
    },
  };
  try {
    await kubectl(bed, ['create', '--dry-run=server', '-f', '-'], JSON.stringify(probe));
    return false;
  } catch (error) {
    if (error instanceof KubectlError && error.message.includes(REFUSAL)) return true;
    throw error;
  }
}

const conditionsSchema = z.looseObject({
  status: z.looseObject({ conditions: z.array(z.looseObject({ type: z.string(), status: z.string(), reason: z.string(), message: z.string() })).optional() }).optional(),
});

type StoredCondition = NonNullable<NonNullable<z.infer<typeof conditionsSchema>['status']>['conditions']>[number];

async function conditionOf(kind: Pick<KindInfo, 'group' | 'version' | 'plural'>, name: string, type: string): Promise<StoredCondition | undefined> {
  const object = conditionsSchema.parse(await api.request('GET', `/apis/${kind.group}/${kind.version}/namespaces/${namespace}/${kind.plural}/${name}`));
  return object.status?.conditions?.find((condition) => condition.type === type);
}

/** `note` tells how the Event begins: the kit's `step <Step> failed (<Category>): ` or the controller's own wording. */
async function expectReported(kind: KindInfo, name: string, conditionType: string, note: RegExp = /^step \w+ failed \(\w+\): /): Promise<void> {
  const condition = await waitFor(
    `${kind.kind} ${name} ${conditionType}=False`,
    () => conditionOf(kind, name, conditionType),
    (found) => found?.status === 'False' && found.message.includes(REFUSAL),
    120_000,
  );
  const reason = condition?.reason;
  const warnings = await waitFor(
    `a Warning Event on ${kind.kind} ${name}`,
    () => eventsAbout(workloads, namespace, name, kind.kind),
    (events) => events.some((event) => event.type === 'Warning' && event.reason === reason && (event.note ?? '').includes(REFUSAL)),
    60_000,
  );
  expect(warnings.find((event) => event.reason === reason)?.note).toMatch(note);
}

describe('failed steps reported on the object by every controller', () => {
  beforeAll(async () => {
    await installCrds(bed);
    await installOam(bed);
    for (const name of ['workload', 'scale', 'rolling', 'appconfig']) running.push(await startControllerProcess({ bed, name }));
    for (const controller of running) await waitControllerReady(controller);
    await workloads.createNamespace(namespace);
    await kubectl(bed, ['apply', '--server-side', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: refusingPolicy() }));
    await waitFor('the policy in force', policyRefuses, (refuses) => refuses, 30_000);
  });

  afterAll(async () => {
    await kubectl(bed, ['delete', 'validatingadmissionpolicybinding,validatingadmissionpolicy', `refuse-${namespace}`, '--ignore-not-found']);
    await workloads.deleteNamespace(namespace);
    for (const controller of running) await stopCleanly(controller);
  });

  it('the workload controller: its StatefulSet refused', async () => {
    await workloads.create(namespace, 'refused-ensemble', bedWorkloadSpec({ replicas: 1 }));
    await expectReported(ZOOKEEPER_WORKLOAD, 'refused-ensemble', 'Ready');
  });

  it.each([
    ['scale', ZOOKEEPER_SCALE, { workloadRef: { name: 'refused-ensemble' }, replicas: 1 }],
    ['rolling', ZOOKEEPER_ROLLING, { workloadRef: { name: 'refused-ensemble' } }],
  ] as const)('the %s controller: binding the trait refused', async (controller, kind, spec) => {
    const body = { apiVersion: kind.apiVersion, kind: kind.kind, metadata: { name: `refused-${controller}` }, spec };
    await kubectl(bed, ['apply', '--server-side', '-n', namespace, '-f', '-'], JSON.stringify(body));
    await expectReported(kind, `refused-${controller}`, 'Ready');
  });

  it('the appconfig controller: the workload it renders refused', async () => {
    const component = {
      apiVersion: OAM_COMPONENT.apiVersion,
      kind: OAM_COMPONENT.kind,
      metadata: { name: 'refused-zookeeper' },
      spec: { workload: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, spec: bedWorkloadSpec({ replicas: 1 }) } },
    };
    const appConfig = {
      apiVersion: OAM_APPLICATION_CONFIGURATION.apiVersion,
      kind: OAM_APPLICATION_CONFIGURATION.kind,
      metadata: { name: 'refused-app' },
      spec: { components: [{ componentName: 'refused-zookeeper' }] },
    };
    await kubectl(bed, ['apply', '--server-side', '-n', namespace, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [component, appConfig] }));
    await expectReported(OAM_APPLICATION_CONFIGURATION, 'refused-app', 'Synced', /^ZookeeperWorkload refused-zookeeper: /);
  });

  it('adds no second Event while a step keeps failing and is retried', async () => {
    const warnings = async (): Promise<number> =>
      (await eventsAbout(workloads, namespace, 'refused-ensemble', ZOOKEEPER_WORKLOAD.kind)).filter((event) => event.type === 'Warning').length;
    const workloadController = running[0];
    if (workloadController === undefined) throw new Error('the workload controller is not running');
    const reconcileErrors = (): Promise<number> => counterOf(workloadController, 'controller_runtime_reconcile_errors_total');
    const before = { warnings: await warnings(), errors: await reconcileErrors() };
    expect(before.warnings).toBe(1);
    await waitFor('three more failed reconciles', reconcileErrors, (errors) => errors >= before.errors + 3, 120_000);
    expect(await warnings()).toBe(before.warnings);
  });
});
