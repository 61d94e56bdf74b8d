// An operator upgrade and its rollback. The previous release (this repository at a pinned earlier commit: its chart,
// with its CRDs in crds/, and its images, built before the suite) runs a 3-member ensemble with a scale and a rolling
// trait, their objects stored under that release's CRDs. `helm upgrade` to the current release (made by makeRelease,
// as npm run release does: chart and images from the bed's registry) takes over the CRDs, as templates, and the
// controllers; then `helm rollback` restores the previous controllers. Across each, every object reads back with its
// spec unchanged and is reconciled by the controllers now running, and a client writing through the client Service
// throughout loses no acknowledged write. What happens to the members depends on what CHANGELOG.md's [Unreleased]
// declares: without "### Restarts ensembles", no member pod is replaced or restarted and the StatefulSet's pod
// template does not move; with it, each change rolls the ensemble once, every member replaced once and the leader
// last, and the rollback brings the previous template back.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { derivedNames, podOfMember, statefulSetNameOf, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageOptions } from '../src/bed/bed.js';
import { repoRoot } from '../src/bed/paths.js';
import { CONTROLLER_NAMES, type ControllerName } from '../src/bed/controller-images.js';
import { ControllerPods } from '../src/controllers/controller-pods.js';
import { builtBy } from '../src/controllers/go-built.js';
import { helm } from '../src/controllers/helm.js';
import { bedWorkloadSpec, isReady, memberPodSource, PodHistory, waitFor, WorkloadClient } from '../src/controllers/index.js';
import { installCrdsFrom } from '../src/controllers/manifests.js';
import { JavaWriter } from '../src/ensemble-probe/index.js';
import { buildImages } from '../src/images/build-images.js';
import { pushedReference, pushImages } from '../src/images/registry-copy.js';
import { unreleasedRestartsEnsembles } from '../src/release/changelog.js';
import { PREVIOUS_RELEASE_CONTROLLERS, previousReleaseImages, previousReleaseTree } from '../src/release/previous-release.js';
import { makeRelease, type Release } from '../src/release/release.js';
import { workerBed } from '../src/worker-bed.js';
import { bedCacheDir } from '../src/cache-dir.js';
import { memberPods, RollingClient } from './rolling-fixtures.js';
import { ROLL_TIMEOUT_MS, RollScenario } from './rolling-scenario.js';
import { ensembleTruth, ScaleClient, settledAt, traitCondition } from './scale-support.js';
import { writerSummary, WritesPerStep } from './tls-fixtures.js';
import { crdReleases, EnsembleState, waitTakenOver, ZOOKEEPER_CRD_NAMES, type TakeOver, type UntouchedState } from './upgrade-fixtures.js';

const bed = workerBed();
const suffix = Date.now().toString(36);
const previousRegistry = `${bed.registry}/zk-oam-previous-${suffix}`;
const currentRegistry = `${bed.registry}/zk-oam-current-${suffix}`;
const releaseName = 'zk-upgrade';
const releaseNamespace = `zk-oam-upgrade-${suffix}`;
const namespace = `upgrade-ensembles-${suffix}`;
const ensemble = { namespace, workload: 'zk', scaleTrait: 'size', rollingTrait: 'roll' };
const MEMBERS = 3;
/** The tree's changes since the previous release change the pod template: CHANGELOG.md says so (docs/releasing.md). */
const RESTARTS_ENSEMBLES = unreleasedRestartsEnsembles(readFileSync(join(repoRoot(), 'CHANGELOG.md'), 'utf8'));
/** The controllers an ensemble with both traits needs; the appconfig controller has none of its objects here. */
const RUNNING: readonly ControllerName[] = ['workload', 'scale', 'rolling'];
const ENSEMBLE_TIMEOUT_MS = 420_000;
const TAKE_OVER_TIMEOUT_MS = 300_000;

const client = new WorkloadClient(bed);
const scale = new ScaleClient(bed);
const rolling = new RollingClient(bed);
const controllers = new ControllerPods(bed, { namespace: releaseNamespace, release: releaseName });
const state = new EnsembleState(bed, ensemble);
const roll = new RollScenario({ client, traits: rolling, namespace, workload: ensemble.workload, trait: ensemble.rollingTrait, members: MEMBERS });
const log = pino({ level: 'warn' });
let outDir = '';
let current: Release;
let previousTree = '';
/** `<registry>/<name>:<tag>` of each previous-release image, as pushed. */
let previousImages: Record<string, string> = {};
let writer: JavaWriter | undefined;
let steps: WritesPerStep | undefined;
let before: UntouchedState;

/** One replica of each controller that runs here, none of the others of the chart's `names`: as light as the proof allows. */
function controllerValues(names: readonly ControllerName[]): string[] {
  return names.flatMap((name) => (RUNNING.includes(name) ? ['--set', `${name}.replicas=1`] : ['--set', `${name}.enabled=false`]));
}

/** The current release's install of them as the previous release ran them, a Deployment each: each image replaced in place. */
const SEPARATE = ['--set', 'install=separate'];

/** Each running controller, on `images`, its leader having reconciled; the trait controllers their trait. */
async function waitAllTakenOver(images: (name: ControllerName) => string): Promise<void> {
  const traits: Partial<Record<ControllerName, TakeOver['trait']>> = { scale: { namespace, name: ensemble.scaleTrait }, rolling: { namespace, name: ensemble.rollingTrait } };
  await Promise.all(RUNNING.map((controller) => waitTakenOver(controllers, { controller, image: images(controller), trait: traits[controller] }, TAKE_OVER_TIMEOUT_MS)));
}

function writing(): { writer: JavaWriter; steps: WritesPerStep } {
  if (writer === undefined || steps === undefined) throw new Error('the writer did not start');
  return { writer, steps };
}

/**
 * The leader's pod as ZooKeeper itself says, once every member serves and is synced: right after a roll the workload's
 * status can still name the leader from before the roll's last election.
 */
async function leaderAsZooKeeperSays(): Promise<string> {
  const truth = await waitFor(`${String(MEMBERS)} settled members`, () => ensembleTruth(memberPods(client, namespace, ensemble.workload)), (seen) => settledAt(seen, MEMBERS), 120_000, 1_000);
  const leader = truth.assessment?.leader;
  if (leader === undefined) throw new Error('a settled ensemble without a leader');
  return podOfMember(statefulSetNameOf(ensemble.workload), leader);
}

/**
 * Runs an operator change (the upgrade, the rollback) as one step of the writer's, then checks what it did to the
 * ensemble: nothing, or, when the tree restarts ensembles, one roll (every member replaced once, at most one down, the
 * leader last) onto a new template, or back onto the first one for the rollback. The specs never move.
 */
async function changeOperator(change: () => Promise<void>, template: 'new' | 'restored'): Promise<void> {
  if (!RESTARTS_ENSEMBLES) {
    await writing().steps.step(change);
    expect(await state.read()).toStrictEqual(before);
    return;
  }
  const leader = await leaderAsZooKeeperSays();
  const history = new PodHistory(memberPodSource(client, namespace, ensemble.workload), MEMBERS);
  await history.start();
  try {
    await writing().steps.step(async () => {
      await change();
      await waitFor('every member replaced by the roll', () => Promise.resolve(history.restarts.length), (count) => count >= MEMBERS, ROLL_TIMEOUT_MS);
      await roll.waitHealthy();
    });
    await history.caughtUp();
  } finally {
    await history.stop();
  }
  expect(history.counts()).toEqual(roll.onePerPod());
  expect(history.order().at(-1)).toBe(leader);
  expect(history.mostDown).toBe(1);
  const after = await state.read();
  expect(after.specs).toStrictEqual(before.specs);
  expect(Object.values(after.members).map((member) => member.restarts)).toEqual(Array.from({ length: MEMBERS }, () => 0));
  if (template === 'restored') expect(after.statefulSet.template).toStrictEqual(before.statefulSet.template);
  else expect(after.statefulSet.template).not.toStrictEqual(before.statefulSet.template);
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'zkoam-upgrade-test-'));
  const options = imageOptions(log);
  // Built by images-main.ts --tests before the suite: this finds them cached (a build here would need npm's registry).
  const previous = await previousReleaseImages(options, bedCacheDir(process.env));
  await pushImages(previous, previousRegistry, (line) => log.info(line));
  previousImages = Object.fromEntries(previous.map((image) => [image.name, pushedReference(previousRegistry, image)]));
  previousTree = await previousReleaseTree(bedCacheDir(process.env));
  current = await makeRelease({
    repo: options.repo,
    outDir,
    registry: currentRegistry,
    buildImages: () => buildImages(options),
    helm: builtBy('helm'),
    kubectl: join(bed.binDir, 'kubectl'),
    progress: (line) => log.info(line),
  });
  await client.createNamespace(releaseNamespace);
  await client.createNamespace(namespace);
}, 600_000);

afterAll(async () => {
  await writer?.stop().catch(() => undefined);
  await helm(['uninstall', releaseName, '--namespace', releaseNamespace, '--wait'], bed).catch(() => undefined);
  await client.deleteNamespace(namespace);
  await client.deleteNamespace(releaseNamespace);
  await rm(outDir, { recursive: true, force: true });
});

describe('an operator upgrade with helm upgrade, and its rollback', () => {
  it('runs a 3-member ensemble with a scale and a rolling trait under the previous release and its CRDs', async () => {
    // What a cluster of the previous release holds: its CRDs, as its chart's crds/ installed them.
    await installCrdsFrom(bed, join(previousTree, 'charts', 'zk-oam', 'crds'));
    const images = PREVIOUS_RELEASE_CONTROLLERS.flatMap((name) => {
      const reference = previousImages[name] ?? '';
      const tag = reference.slice(reference.lastIndexOf(':') + 1);
      return ['--set', `${name}.image.repository=${reference.slice(0, reference.lastIndexOf(':'))}`, '--set', `${name}.image.tag=${tag}`];
    });
    await helm(['install', releaseName, join(previousTree, 'charts', 'zk-oam'), '--namespace', releaseNamespace, '--wait', ...controllerValues(PREVIOUS_RELEASE_CONTROLLERS), ...images, '--set', `watchNamespace=${namespace}`], bed);
    await client.create(namespace, ensemble.workload, bedWorkloadSpec({ replicas: MEMBERS }));
    await scale.create(namespace, ensemble.scaleTrait, { workloadRef: { name: ensemble.workload }, replicas: 3 });
    await rolling.create(namespace, ensemble.rollingTrait, ensemble.workload);
    await waitFor(
      'the workload Ready with a leader and 3 synced members',
      () => client.get(namespace, ensemble.workload),
      (workload) => isReady(workload) && workload.status?.leader !== undefined && workload.status.members?.length === 3 && workload.status.members.every((member) => member.synced),
      ENSEMBLE_TIMEOUT_MS,
      2_000,
    );
    await waitFor('both traits Ready', async () => [traitCondition(await scale.get(namespace, ensemble.scaleTrait), 'Ready'), (await rolling.get(namespace, ensemble.rollingTrait)).status?.conditions?.find((c) => c.type === 'Ready')], (conditions) => conditions.every((c) => c?.status === 'True'), 120_000, 1_000);
    await waitAllTakenOver((name) => previousImages[name] ?? '');
    const service = `${derivedNames(ensemble.workload).clientService}.${namespace}.svc.cluster.local:${String(ZOOKEEPER_PORTS.client)}`;
    writer = await JavaWriter.start({ resolvConf: bed.resolvConf }, service, '/through-the-upgrade');
    steps = new WritesPerStep(writer);
    before = await state.read();
    expect(Object.keys(before.members)).toHaveLength(MEMBERS);
  }, ENSEMBLE_TIMEOUT_MS + 300_000);

  it('upgrades to the current release: its controllers reconcile every object, no spec changes, the members as the changelog says', async () => {
    await changeOperator(async () => {
      // --take-ownership: the CRDs, installed from the previous chart's crds/, become the release's templates.
      await helm(['upgrade', releaseName, `oci://${currentRegistry}/zk-oam`, '--version', current.version, '--plain-http', '--namespace', releaseNamespace, '--take-ownership', '--wait', ...controllerValues(CONTROLLER_NAMES), ...SEPARATE, '--set', `watchNamespaces={${namespace}}`], bed);
      await waitAllTakenOver((name) => current.images.find((image) => image.name === name)?.reference ?? '');
    }, 'new');
    expect(await crdReleases(bed)).toStrictEqual(Object.fromEntries(ZOOKEEPER_CRD_NAMES.map((name) => [name, releaseName])));
  }, TAKE_OVER_TIMEOUT_MS + ROLL_TIMEOUT_MS + 300_000);

  it('rolls back to the previous release: its controllers reconcile every object again, the members as the changelog says', async () => {
    await changeOperator(async () => {
      await helm(['rollback', releaseName, '1', '--namespace', releaseNamespace, '--wait'], bed);
      await waitAllTakenOver((name) => previousImages[name] ?? '');
    }, 'restored');
  }, TAKE_OVER_TIMEOUT_MS + ROLL_TIMEOUT_MS + 300_000);

  it('loses no write the ensemble acknowledged to a client writing throughout', async () => {
    const { writer: running, steps: counted } = writing();
    writer = undefined;
    const report = await running.stop();
    console.log(writerSummary('through the client Service, across helm upgrade / helm rollback', report, counted.counts));
    expect(report.lost).toEqual([]);
    expect(counted.counts).toHaveLength(2);
    expect(counted.counts.every((count) => count > 0)).toBe(true);
  }, 180_000);
});
