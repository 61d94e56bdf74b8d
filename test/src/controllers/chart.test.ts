// The Helm chart without a cluster: it lints, its values schema refuses bad values by name, and with default values it
// renders exactly what deploy/ applies (field for field, Helm's own labels aside): the combined install, deploy/manager,
// and with install=separate a Deployment per controller, deploy/<controller>. test/e2e/helm-chart.test.ts
// installs it on the bed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chartValuesSchema, crdManifests, oamCrdManifests } from '@zk-oam/apis';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTROLLER_NAMES, IMAGE_NAMES, packageDir } from '../bed/controller-images.js';
import { BED_KUBE_VERSION, CHART_DIR, helm } from './helm.js';
import { readManifests, repoRoot } from './manifests.js';

const HELM_LABELS = ['app.kubernetes.io/managed-by', 'helm.sh/chart'];
const HELM_ANNOTATIONS = ['helm.sh/resource-policy'];
const stringMap = z.record(z.string(), z.string());
const objectSchema = z.looseObject({ kind: z.string(), metadata: z.looseObject({ name: z.string(), labels: stringMap.optional(), annotations: stringMap.optional() }) });
type Manifest = z.infer<typeof objectSchema>;

/** `helm template` of the chart as release zk-oam, with these flags (--set, --set-json). */
async function template(flags: readonly string[]): Promise<Manifest[]> {
  const output = await helm(['template', 'zk-oam', CHART_DIR, '--namespace', 'zk-oam-system', '--kube-version', BED_KUBE_VERSION, ...flags]);
  return parseAllDocuments(output)
    .map((document): unknown => document.toJS())
    .filter((object) => object !== null)
    .map((object) => objectSchema.parse(object));
}

async function rendered(...set: string[]): Promise<Manifest[]> {
  return template(set.flatMap((value) => ['--set', value]));
}

/** What both installs render with these flags, one after the other: every deployable's Deployment, the manager's too. */
async function bothInstalls(flags: readonly string[]): Promise<Manifest[]> {
  return [...(await template(flags)), ...(await template([...flags, '--set', 'install=separate']))];
}

/** The object as deploy/ has it: without what Helm adds to every object, and a CRD's keep annotation. */
function withoutHelmMetadata(object: Manifest): Manifest {
  const { labels, annotations, ...metadata } = object.metadata;
  const without = (map: Record<string, string> | undefined, keys: readonly string[]) => {
    const kept = Object.entries(map ?? {}).filter(([key]) => !keys.includes(key));
    return kept.length === 0 ? undefined : Object.fromEntries(kept);
  };
  const kept = { labels: without(labels, HELM_LABELS), annotations: without(annotations, HELM_ANNOTATIONS) };
  return { ...object, metadata: { ...metadata, ...Object.fromEntries(Object.entries(kept).filter(([, map]) => map !== undefined)) } };
}

/** The ClusterRoles for people (aggregated into view, edit and admin), installed with every controller choice. */
const USER_ROLES = ['zk-oam-view', 'zk-oam-edit'];
const key = (object: Manifest): string => `${object.kind}/${object.metadata.name}`;

const podSpecSchema = z.looseObject({
  imagePullSecrets: z.array(z.object({ name: z.string() })).optional(),
  containers: z.array(z.looseObject({ image: z.string(), imagePullPolicy: z.string().optional() })),
});
const deploymentSchema = z.looseObject({ spec: z.looseObject({ template: z.looseObject({ spec: podSpecSchema }) }) });

function podSpecOf(deployment: Manifest | undefined): z.infer<typeof podSpecSchema> {
  return deploymentSchema.parse(deployment).spec.template.spec;
}

describe('the Helm chart (charts/zk-oam)', () => {
  it('passes helm lint', async () => {
    expect(await helm(['lint', CHART_DIR])).toContain('0 chart(s) failed');
  });

  // Helm's error begins with the command line; each pattern matches what Helm says after it: the value's path and why.
  it.each([
    ['workload.resources.limits.memory=1Gi', "at '/workload/resources/limits/memory': '1Gi' does not match pattern"],
    ['scale.replica=3', "at '/scale': additional properties 'replica' not allowed"],
    ['metrics.port=80', "at '/metrics/port': minimum"],
    ['rolling.logLevel=verbose', "at '/rolling/logLevel': value must be one of"],
    ['watchNamespaces={kafka,Kafka_Prod}', "at '/watchNamespaces/1': 'Kafka_Prod' does not match pattern"],
    ['watchNamespaces={kafka,kafka}', "at '/watchNamespaces': items at 0 and 1 are equal"],
    ['watchNamespace=kafka', "at '': additional properties 'watchNamespace' not allowed"],
    ['console.port=80', "at '/console/port': minimum"],
    ['global.image.registry=registry.example.com/', "at '/global/image/registry': 'registry.example.com/' does not match pattern"],
    ['global.image.pullPolicy=Sometimes', "at '/global/image/pullPolicy': value must be one of"],
    ['workload.image.pulPolicy=Always', "at '/workload/image': additional properties 'pulPolicy' not allowed"],
    ['console.image.pullPolicy=always', "at '/console/image/pullPolicy': value must be one of"],
    ['global.imagePullSecret[0].name=regcred', "at '/global': additional properties 'imagePullSecret' not allowed"],
    ['global.imagePullSecrets[0].nam=regcred', "at '/global/imagePullSecrets/0': additional properties 'nam' not allowed"],
    ['global.nodeSelectr.pool=system', "at '/global': additional properties 'nodeSelectr' not allowed"],
    ['workload.nodeSelector.pool=1', "at '/workload/nodeSelector/pool': got number, want string"],
    ['workload.tolerations[0].efect=NoSchedule', "at '/workload/tolerations/0': additional properties 'efect' not allowed"],
    ['global.tolerations[0].operator=Exist', "at '/global/tolerations/0/operator': value must be one of"],
    ['global.affinity.nodeAfinity.x=y', "at '/global/affinity': additional properties 'nodeAfinity' not allowed"],
    ['scale.podAnnotation.team=a', "at '/scale': additional properties 'podAnnotation' not allowed"],
    ['rolling.podLabel.team=a', "at '/rolling': additional properties 'podLabel' not allowed"],
    ['appconfig.priorityClassName=Not_A_Name', "at '/appconfig/priorityClassName': 'Not_A_Name' does not match pattern"],
    ['global.podSecurityContext.runAsUsr=1000', "at '/global/podSecurityContext': additional properties 'runAsUsr' not allowed"],
    ['workload.podSecurityContext.runAsUser=-1', "at '/workload/podSecurityContext/runAsUser': minimum"],
    ['console.securityContext.readOnlyRootFileSystem=true', "at '/console/securityContext': additional properties 'readOnlyRootFileSystem' not allowed"],
    ['global.securityContext.capabilities.drop=ALL', "at '/global/securityContext/capabilities/drop': got string, want array"],
    ['crds.instal=false', "at '/crds': additional properties 'instal' not allowed"],
    ['crds.keep=no', "at '/crds/keep': got string, want boolean"],
    ['install=both', "at '/install': value must be one of"],
    ['manager.enabled=true', "at '/manager': additional properties 'enabled' not allowed"],
  ])('refuses --set %s, saying %s', async (value, message) => {
    const refusal = await rendered(value).then(
      () => '(rendered)',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(refusal.slice(refusal.indexOf("values don't meet the specifications"))).toContain(message);
  });

  it('has values.yaml valid against the schema it is generated from, and the version of every image as appVersion', async () => {
    const values = parse(await readFile(join(CHART_DIR, 'values.yaml'), 'utf8')) as unknown;
    expect(chartValuesSchema.safeParse(values).error).toBeUndefined();
    const chart = z.object({ appVersion: z.string() }).loose().parse(parse(await readFile(join(CHART_DIR, 'Chart.yaml'), 'utf8')));
    for (const name of IMAGE_NAMES) {
      const { version } = z.object({ version: z.string() }).loose().parse(JSON.parse(await readFile(join(packageDir(name), 'package.json'), 'utf8')));
      expect(chart.appVersion).toBe(version);
    }
  });

  it('renders with default values, as release zk-oam, exactly what deploy/ applies: the combined install, deploy/manager', async () => {
    const deploy: Manifest[] = [];
    // deploy/manager/controller-rbac: each controller's ServiceAccount and RBAC, as it runs as its own in the manager.
    for (const name of CONTROLLER_NAMES) {
      deploy.push(...(await readManifests(join(repoRoot, 'deploy', name), ['Deployment', 'Service'])).map((object) => objectSchema.parse(object)));
    }
    deploy.push(...(await readManifests(join(repoRoot, 'deploy', 'manager'))).map((object) => objectSchema.parse(object)));
    deploy.push(...(await readManifests(join(repoRoot, 'deploy', 'oam'))).map((object) => objectSchema.parse(object)));
    // The ZooKeeper CRDs and the user roles; the OAM CRDs are in the chart's crds/, which helm template leaves out.
    deploy.push(...(await readManifests(join(repoRoot, 'deploy', 'crds'))).map((object) => objectSchema.parse(object)));
    const chart = (await rendered()).map(withoutHelmMetadata);
    expect(chart.map(key).sort()).toEqual(deploy.map(key).sort());
    const fromDeploy = new Map(deploy.map((object) => [key(object), object]));
    for (const object of chart) expect(object, key(object)).toEqual(fromDeploy.get(key(object)));
  });

  it('with install=separate, renders exactly what deploy/<controller> applies for each', async () => {
    const deploy: Manifest[] = [];
    for (const name of CONTROLLER_NAMES) deploy.push(...(await readManifests(join(repoRoot, 'deploy', name))).map((object) => objectSchema.parse(object)));
    deploy.push(...(await readManifests(join(repoRoot, 'deploy', 'oam'))).map((object) => objectSchema.parse(object)));
    deploy.push(...(await readManifests(join(repoRoot, 'deploy', 'crds'))).map((object) => objectSchema.parse(object)));
    const chart = (await rendered('install=separate')).map(withoutHelmMetadata);
    expect(chart.map(key).sort()).toEqual(deploy.map(key).sort());
    const fromDeploy = new Map(deploy.map((object) => [key(object), object]));
    for (const object of chart) expect(object, key(object)).toEqual(fromDeploy.get(key(object)));
  });

  it('with console.enabled, also renders exactly what deploy/console applies: no RBAC for the console', async () => {
    const deploy = (await readManifests(join(repoRoot, 'deploy', 'console'))).map((object) => objectSchema.parse(object));
    const chart = (await rendered('console.enabled=true')).map(withoutHelmMetadata);
    const consoleObjects = chart.filter((object) => object.metadata.labels?.['app.kubernetes.io/name'] === 'zk-oam-console');
    expect(consoleObjects.map(key).sort()).toEqual(deploy.map(key).sort());
    const fromDeploy = new Map(deploy.map((object) => [key(object), object]));
    for (const object of consoleObjects) expect(object, key(object)).toEqual(fromDeploy.get(key(object)));
    expect(JSON.stringify(chart.filter((object) => object.kind.endsWith('Binding')))).not.toContain('zk-oam-console');
    expect((await rendered()).map(key)).not.toContain('Deployment/zk-oam-console');
  });

  it('runs only the enabled controllers in the manager, each as its own ServiceAccount, the manager asking for their tokens alone', async () => {
    const objects = await rendered('scale.enabled=false', 'rolling.enabled=false', 'znode.enabled=false', 'manager.resources.limits.memory=1024Mi');
    // Beside the CRDs and the roles for people, which come whatever controllers are chosen, and appconfig's OAM definitions.
    const controllers = objects.filter(
      (object) => !USER_ROLES.includes(object.metadata.name) && !['CustomResourceDefinition', 'WorkloadDefinition', 'TraitDefinition'].includes(object.kind),
    );
    const names = new Set(controllers.map((object) => object.metadata.labels?.['app.kubernetes.io/name']));
    expect(names).toEqual(new Set(['zk-oam-manager', 'zk-oam-workload', 'zk-oam-appconfig']));
    const deployments = objects.filter((object) => object.kind === 'Deployment');
    expect(deployments.map((object) => object.metadata.name)).toEqual(['zk-oam-manager']);
    const deployment = JSON.stringify(deployments[0]);
    expect(deployment).toContain('{"name":"CONTROLLERS","value":"workload,appconfig"}');
    expect(deployment).toContain('--max-old-space-size=512 ');
    expect(deployment).toContain('{"name":"CONTROLLER_SERVICE_ACCOUNT_PREFIX","value":"zk-oam-"}');
    const subjects = new Set(controllers.filter((object) => object.kind.endsWith('Binding')).map((binding) => JSON.stringify(binding['subjects'])));
    expect(subjects).toEqual(
      new Set(['manager', 'workload', 'appconfig'].map((name) => JSON.stringify([{ kind: 'ServiceAccount', name: `zk-oam-${name}`, namespace: 'zk-oam-system' }]))),
    );
    expect(objects.filter((object) => object.kind === 'ServiceAccount').map((object) => object.metadata.name).sort()).toEqual([
      'zk-oam-appconfig',
      'zk-oam-manager',
      'zk-oam-workload',
    ]);
    expect(objects.find((object) => object.metadata.name === 'zk-oam-manager-token-request' && object.kind === 'Role')?.['rules']).toEqual([
      { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'], resourceNames: ['zk-oam-workload', 'zk-oam-appconfig'] },
    ]);
  });

  it('with install=separate, installs only what is enabled, and sizes the Node heap from the memory limit', async () => {
    const objects = await rendered('install=separate', 'scale.enabled=false', 'rolling.enabled=false', 'appconfig.enabled=false', 'znode.enabled=false', 'workload.resources.limits.memory=1024Mi');
    // The CRDs and the roles for people come whatever controllers are chosen.
    const controllers = objects.filter((object) => !USER_ROLES.includes(object.metadata.name) && object.kind !== 'CustomResourceDefinition');
    expect(new Set(controllers.map((object) => object.metadata.labels?.['app.kubernetes.io/name']))).toEqual(new Set(['zk-oam-workload']));
    expect(objects.map((object) => object.kind)).not.toContain('TraitDefinition');
    const deployment = JSON.stringify(objects.find((object) => object.kind === 'Deployment'));
    expect(deployment).toContain('--max-old-space-size=512 ');
    expect(deployment).toContain('"memory":"1024Mi"');
  });

  it('names every image under global.image.registry, pulled with global.imagePullSecrets and pullPolicy unless a deployable gives its own', async () => {
    const objects = await bothInstalls(
      ['console.enabled=true', 'global.image.registry=registry.example.com/zk-oam', 'global.image.pullPolicy=Always', 'scale.image.pullPolicy=IfNotPresent', 'global.imagePullSecrets[0].name=regcred'].flatMap(
        (value) => ['--set', value],
      ),
    );
    const pods = Object.fromEntries(objects.filter((object) => object.kind === 'Deployment').map((deployment) => [deployment.metadata.name, podSpecOf(deployment)]));
    for (const name of IMAGE_NAMES) {
      const pod = pods[`zk-oam-${name}`];
      expect(pod?.imagePullSecrets, name).toEqual([{ name: 'regcred' }]);
      expect(pod?.containers[0], name).toMatchObject({
        image: `registry.example.com/zk-oam/${name}:0.1.0`,
        imagePullPolicy: name === 'scale' ? 'IfNotPresent' : 'Always',
      });
    }
    const wholeName = podSpecOf((await rendered('install=separate', 'global.image.registry=', 'workload.image.repository=quay.io/me/workload')).find((object) => object.kind === 'Deployment'));
    expect(wholeName.containers[0]?.image).toBe('quay.io/me/workload:0.1.0');
  });

  it("puts global's pod settings on every deployable, a deployable's own over them: maps merged key by key, the rest replaced", async () => {
    const toleration = (key: string) => ({ key, operator: 'Exists', effect: 'NoSchedule' });
    const nodeAffinity = (pool: string) => ({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: [pool] }] }] } },
    });
    const global = {
      nodeSelector: { pool: 'system' },
      tolerations: [toleration('dedicated')],
      affinity: nodeAffinity('system'),
      podAnnotations: { 'example.com/team': 'platform' },
      podLabels: { team: 'platform', 'app.kubernetes.io/name': 'not-the-selector' },
      priorityClassName: 'platform-high',
      podSecurityContext: { runAsUser: 1001, fsGroup: 2000 },
      securityContext: { readOnlyRootFilesystem: false },
    };
    const workload = {
      nodeSelector: { zone: 'a' },
      tolerations: [toleration('zookeeper')],
      affinity: nodeAffinity('zookeeper'),
      podAnnotations: { 'example.com/owner': 'zk' },
      podLabels: { tier: 'control' },
      priorityClassName: 'zk-oam-high',
      podSecurityContext: { runAsGroup: 3000 },
      securityContext: { capabilities: { add: ['NET_BIND_SERVICE'] } },
    };
    const objects = await bothInstalls(['--set', 'console.enabled=true', '--set-json', `global=${JSON.stringify(global)}`, '--set-json', `workload=${JSON.stringify(workload)}`]);
    const templateOf = (name: string) =>
      z
        .looseObject({ spec: z.looseObject({ template: z.looseObject({ metadata: z.unknown(), spec: z.looseObject({ containers: z.array(z.looseObject({})) }) }) }) })
        .parse(objects.find((object) => object.kind === 'Deployment' && object.metadata.name === `zk-oam-${name}`)).spec.template;
    const placed = (name: string) => {
      const { metadata, spec } = templateOf(name);
      const { nodeSelector, tolerations, affinity, priorityClassName, securityContext } = spec;
      return { metadata, nodeSelector, tolerations, affinity, priorityClassName, securityContext, containerSecurityContext: spec.containers[0]?.['securityContext'] };
    };
    const defaultPodSecurityContext = { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } };
    const defaultSecurityContext = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } };
    expect(placed('workload')).toEqual({
      metadata: {
        labels: { 'app.kubernetes.io/name': 'zk-oam-workload', 'app.kubernetes.io/part-of': 'zk-oam', team: 'platform', tier: 'control' },
        annotations: { 'example.com/team': 'platform', 'example.com/owner': 'zk' },
      },
      nodeSelector: { pool: 'system', zone: 'a' },
      tolerations: workload.tolerations,
      affinity: workload.affinity,
      priorityClassName: 'zk-oam-high',
      securityContext: { ...defaultPodSecurityContext, runAsUser: 1001, runAsGroup: 3000, fsGroup: 2000 },
      containerSecurityContext: { ...defaultSecurityContext, readOnlyRootFilesystem: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } },
    });
    for (const name of IMAGE_NAMES.filter((name) => name !== 'workload')) {
      expect(placed(name), name).toEqual({
        metadata: {
          labels: { 'app.kubernetes.io/name': `zk-oam-${name}`, 'app.kubernetes.io/part-of': 'zk-oam', team: 'platform' },
          annotations: global.podAnnotations,
        },
        nodeSelector: global.nodeSelector,
        tolerations: global.tolerations,
        affinity: global.affinity,
        priorityClassName: 'platform-high',
        securityContext: { ...defaultPodSecurityContext, runAsUser: 1001, fsGroup: 2000 },
        containerSecurityContext: { ...defaultSecurityContext, readOnlyRootFilesystem: false },
      });
    }
  });

  it('drops a default security setting set to null', async () => {
    const deployments = (await bothInstalls(['--set', 'global.podSecurityContext.seccompProfile=null'])).filter((object) => object.kind === 'Deployment');
    expect(deployments).toHaveLength(CONTROLLER_NAMES.length + 1);
    for (const deployment of deployments) expect(JSON.stringify(deployment), deployment.metadata.name).not.toContain('seccompProfile');
  });

  it('installs and upgrades the ZooKeeper CRDs as templates unless crds.install=false, kept on uninstall unless crds.keep=false', async () => {
    const zookeeperCrds = crdManifests().map((crd) => crd.metadata.name).sort();
    const crds = (objects: Manifest[]) => objects.filter((object) => object.kind === 'CustomResourceDefinition');
    const annotations = (objects: Manifest[]) => crds(objects).map((crd) => crd.metadata.annotations);
    const kept = await rendered();
    expect(crds(kept).map((crd) => crd.metadata.name).sort()).toEqual(zookeeperCrds);
    expect(annotations(kept)).toEqual(zookeeperCrds.map(() => ({ 'helm.sh/resource-policy': 'keep' })));
    expect(annotations(await rendered('crds.keep=false'))).toEqual(zookeeperCrds.map(() => undefined));
    expect(crds(await rendered('crds.install=false'))).toEqual([]);
    // The OAM CRDs stay in crds/: Helm installs them when missing, never upgrades them, and --skip-crds leaves them out.
    const withCrdsDirectory = await template(['--include-crds', '--set', 'crds.install=false']);
    expect(crds(withCrdsDirectory).map((crd) => crd.metadata.name).sort()).toEqual(oamCrdManifests().map((crd) => crd.metadata.name).sort());
  });

  it('with watchNamespaces, watches those namespaces alone and binds the roles in each, not cluster-wide', async () => {
    const objects = await rendered('watchNamespaces={kafka,billing}');
    const bindings = objects.filter((object) => object.kind.endsWith('Binding'));
    const clusterWide = bindings.filter((object) => object.kind === 'ClusterRoleBinding').map((object) => object.metadata.name);
    // The OAM definitions and namespaces' labels are cluster-scoped: those reads alone cannot be namespaced.
    expect(clusterWide.sort()).toEqual(['zk-oam-appconfig-definitions', 'zk-oam-znode-namespaces']);
    const inNamespace = (namespace: string) =>
      bindings
        .filter((object) => object.kind === 'RoleBinding' && (object.metadata as { namespace?: string }).namespace === namespace)
        .map((object) => object.metadata.name)
        .sort();
    for (const namespace of ['kafka', 'billing']) expect(inNamespace(namespace), namespace).toEqual(CONTROLLER_NAMES.map((name) => `zk-oam-${name}`).sort());
    // Beside the manager's own, which lets it ask for the controllers' tokens.
    expect(inNamespace('zk-oam-system')).toEqual([...CONTROLLER_NAMES.map((name) => `zk-oam-${name}-leader-election`), 'zk-oam-manager-token-request'].sort());
    const deployments = objects.filter((object) => object.kind === 'Deployment');
    expect(deployments.map((deployment) => deployment.metadata.name)).toEqual(['zk-oam-manager']);
    for (const deployment of deployments) expect(JSON.stringify(deployment), deployment.metadata.name).toContain('{"name":"WATCH_NAMESPACE","value":"kafka,billing"}');
    expect(JSON.stringify(await rendered())).not.toContain('WATCH_NAMESPACE');
  });

  it("with nats.install, runs its own NATS as deploy/nats does and points the controllers at its generated Secret", async () => {
    const objects = (await rendered('nats.install=true', 'nats.existingSecret=unused')).map(withoutHelmMetadata);
    const deploy = (await readManifests(join(repoRoot, 'deploy', 'nats'))).map((object) => objectSchema.parse(object));
    const server = objects.filter((object) => object.metadata.labels?.['app.kubernetes.io/name'] === 'zk-oam-nats');
    expect(server.map(key).sort()).toEqual(deploy.map(key).sort());
    const fromDeploy = new Map(deploy.map((object) => [key(object), object]));
    for (const object of server.filter((object) => object.kind !== 'Secret')) expect(object, key(object)).toEqual(fromDeploy.get(key(object)));
    const secret = z
      .object({ data: z.object({ url: z.string(), user: z.string(), password: z.string() }) })
      .loose()
      .parse(server.find((object) => object.kind === 'Secret'));
    const decoded = (value: string) => Buffer.from(value, 'base64').toString('utf8');
    expect(decoded(secret.data.url)).toBe('nats://zk-oam-nats.zk-oam-system.svc:4222');
    expect(decoded(secret.data.password)).toMatch(/^[A-Za-z0-9]{32}$/);
    const deployments = JSON.stringify(objects.filter((object) => object.kind === 'Deployment'));
    expect(deployments).not.toContain('unused');
    // The manager's NATS_URL, NATS_USER and NATS_PASSWORD: three of its controllers read NATS.
    expect(deployments.match(/"secretKeyRef":\{"name":"zk-oam-nats"/g)).toHaveLength(3);
  });
});
