// The Helm chart as a user installs it: its rendering passes the apiserver's server-side dry run; `helm install` with
// only the workload controller runs an ensemble, its Deployment's pods run by the node agent from the image that the
// chart's global.image.registry names in the bed's registry;
// `helm upgrade` adding the scale controller makes `kubectl scale zks` work; `helm uninstall` leaves the CRDs (the
// release's, adopted from the bed's kubectl-applied ones, kept by crds.keep) and the ensembles in place. The release has
// its own name and namespace, so nothing else it creates is shared with deploy/.
import { memberSelectorOf, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedImageRepository, imageVersion } from '../src/bed/controller-images.js';
import { manifestDigest } from '../src/images/registry-copy.js';
import { ControllerPods } from '../src/controllers/controller-pods.js';
import { BED_KUBE_VERSION, CHART_DIR, helm } from '../src/controllers/helm.js';
import { bedWorkloadSpec, imageNodeArgs, installCrds, installOam, kubectl, waitFor, WorkloadClient } from '../src/controllers/index.js';
import { ensembleTruth, ScaleClient, settledAt, waitScaled } from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const suffix = Date.now().toString(36);
const release = 'zk-helm';
const releaseNamespace = `zk-oam-helm-${suffix}`;
const namespace = `helm-ensembles-${suffix}`;
const elsewhere = `helm-elsewhere-${suffix}`;
const name = 'zk';
const trait = 'zk-size';
const controllers = new ControllerPods(bed, { namespace: releaseNamespace, release });
const client = new WorkloadClient(bed);
const traits = new ScaleClient(bed);
// The images from the bed's registry, named through the chart's registry value as a platform team names its own.
const bedRegistry = ['--set', `global.image.registry=${bed.registry}/zk-oam`];
// A Deployment per controller, so that adding one is a Deployment of its own (the default, combined, is deploy/manager's:
// test/e2e/controller-manager.test.ts).
const onlyWorkload = ['--set', 'install=separate', '--set', 'scale.enabled=false', '--set', 'rolling.enabled=false', '--set', 'appconfig.enabled=false', '--set', 'znode.enabled=false', '--set', 'backup.enabled=false', '--set', `watchNamespaces={${namespace}}`, ...bedRegistry];
const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(name) })).items;

beforeAll(async () => {
  await client.createNamespace(releaseNamespace);
  await client.createNamespace(namespace);
  await client.createNamespace(elsewhere);
});

afterAll(async () => {
  await helm(['uninstall', release, '--namespace', releaseNamespace, '--wait'], bed).catch(() => undefined);
  // The scale controller is gone with the release: its unbind finalizer would keep the trait, and the namespace, forever.
  const noFinalizers = JSON.stringify({ metadata: { finalizers: null } });
  await kubectl(bed, ['patch', 'zks', trait, '--namespace', namespace, '--type=merge', '-p', noFinalizers]).catch(() => undefined);
  await client.deleteNamespace(namespace);
  await client.deleteNamespace(elsewhere);
  await client.deleteNamespace(releaseNamespace);
});

describe('the Helm chart on the bed', () => {
  it('renders objects the apiserver accepts (server-side dry run of every controller and the OAM definitions, and the console)', async () => {
    await installCrds(bed);
    await installOam(bed);
    const dryRun = async (flags: readonly string[]) => {
      const manifests = await helm(['template', release, CHART_DIR, '--namespace', releaseNamespace, '--kube-version', BED_KUBE_VERSION, ...flags]);
      return kubectl(bed, ['apply', '--server-side', '--dry-run=server', '--field-manager=helm-dry-run', '-f', '-'], manifests);
    };
    const separate = await dryRun(['--set', 'install=separate']);
    expect(separate).toContain(`deployment.apps/${release}-workload serverside-applied (server dry run)`);
    expect(separate.trim().split('\n')).toHaveLength(54);
    const output = await dryRun([]);
    expect(output).toContain(`deployment.apps/${release}-manager serverside-applied (server dry run)`);
    expect(output).toContain('traitdefinition.core.oam.dev/zookeeperscales.scale.zookeeper.zkoam.dev serverside-applied (server dry run)');
    // The release's own ClusterRoles for people, beside those deploy/crds installed as zk-oam-view and zk-oam-edit.
    expect(output).toContain(`clusterrole.rbac.authorization.k8s.io/${release}-edit serverside-applied (server dry run)`);
    expect(output).toContain(`customresourcedefinition.apiextensions.k8s.io/${ZOOKEEPER_WORKLOAD.plural}.${ZOOKEEPER_WORKLOAD.group} serverside-applied (server dry run)`);
    expect(output.trim().split('\n')).toHaveLength(47);
    const options = ['--set', `watchNamespaces={${namespace}}`, '--set', 'nats.install=true', '--set', 'console.enabled=true'];
    const scoped = await helm(['template', release, CHART_DIR, '--namespace', releaseNamespace, '--kube-version', BED_KUBE_VERSION, ...options]);
    const scopedOutput = await kubectl(bed, ['apply', '--server-side', '--dry-run=server', '--field-manager=helm-dry-run', '-f', '-'], scoped);
    expect(scopedOutput).toContain(`rolebinding.rbac.authorization.k8s.io/${release}-scale serverside-applied (server dry run)`);
    expect(scopedOutput).toContain(`statefulset.apps/${release}-nats serverside-applied (server dry run)`);
    expect(scopedOutput).toContain(`deployment.apps/${release}-console serverside-applied (server dry run)`);
  });

  it('installs the workload controller alone, watching one namespace, whose pods run the image, and it brings an ensemble there to Ready', async () => {
    // The bed's CRDs were applied with kubectl, as a cluster upgraded from an earlier chart or deploy/crds has them: the
    // release adopts them.
    const notes = await helm(['install', release, CHART_DIR, '--namespace', releaseNamespace, '--take-ownership', ...onlyWorkload], bed);
    expect(notes).toContain('the workload controller (2 replicas, one leads)');
    expect(notes).toContain('--set scale.enabled=true');
    expect(notes).toContain("The ZooKeeper CRDs are the release's: `helm upgrade` upgrades them, and `helm uninstall` leaves them");
    const pods = await controllers.waitReady('workload');
    expect(pods).toHaveLength(2);
    expect(await controllers.commandLine(pods[0]?.name ?? '')).toEqual(['node', ...(await imageNodeArgs()), '/app/main.mjs']);
    const repository = bedImageRepository(bed, 'workload');
    const image = `${repository}:${imageVersion()}`;
    expect(pods.map((pod) => [pod.image, pod.imageID])).toStrictEqual(Array(2).fill([image, `${repository}@${await manifestDigest(image)}`]));
    const deployments = await kubectl(bed, ['get', 'deployments', '--namespace', releaseNamespace, '-o', 'name']);
    expect(deployments.trim().split('\n')).toEqual([`deployment.apps/${release}-workload`]);
    await client.create(elsewhere, name, bedWorkloadSpec({ replicas: 1 }));
    await client.create(namespace, name, bedWorkloadSpec({ replicas: 1 }));
    await waitFor('a Ready 1-member ensemble', () => ensembleTruth(listPods), (truth) => settledAt(truth, 1), 300_000, 1_000);
    // Outside the watched namespace, nothing was rendered and no status written: the controller never saw it.
    expect(await kubectl(bed, ['get', 'statefulsets', '--namespace', elsewhere, '-o', 'name'])).toBe('');
    expect(await kubectl(bed, ['get', 'zkw', name, '--namespace', elsewhere, '-o', 'jsonpath={.status}'])).toBe('');
  });

  it('upgrades to add the scale controller, and `kubectl scale zks` then grows the ensemble', async () => {
    await helm(['upgrade', release, CHART_DIR, '--namespace', releaseNamespace, '--reuse-values', '--set', 'scale.enabled=true'], bed);
    await controllers.waitReady('scale');
    const manifest = {
      apiVersion: ZOOKEEPER_SCALE.apiVersion,
      kind: ZOOKEEPER_SCALE.kind,
      metadata: { name: trait, namespace },
      spec: { workloadRef: { name }, replicas: 1 },
    };
    await kubectl(bed, ['apply', '--server-side', '-f', '-'], JSON.stringify(manifest));
    await waitScaled(traits, { namespace, trait, listPods }, 1);
    await kubectl(bed, ['scale', `zks/${trait}`, '--namespace', namespace, '--replicas=3']);
    await waitScaled(traits, { namespace, trait, listPods }, 3);
  });

  it('uninstalls the controllers and leaves the CRDs (the release keeps them) and the ensembles in place', async () => {
    await helm(['uninstall', release, '--namespace', releaseNamespace, '--wait'], bed);
    await waitFor('the release pods gone', () => controllers.pods('workload'), (pods) => pods.length === 0, 120_000);
    const crds = await kubectl(bed, ['get', 'crd', '-o', 'name']);
    expect(crds).toContain(`customresourcedefinition.apiextensions.k8s.io/${ZOOKEEPER_WORKLOAD.plural}.${ZOOKEEPER_WORKLOAD.group}`);
    expect(await kubectl(bed, ['get', 'zkw', name, '--namespace', namespace, '-o', 'name'])).toContain(name);
    expect(await kubectl(bed, ['get', 'statefulset', name, '--namespace', namespace, '-o', 'name'])).toContain(name);
    expect(await kubectl(bed, ['get', 'clusterrole', `${release}-workload`, '--ignore-not-found', '-o', 'name'])).toBe('');
    const truth = await ensembleTruth(listPods);
    expect(settledAt(truth, 3)).toBe(true);
  });
});
