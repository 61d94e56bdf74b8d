// A release as a platform team gets one: `npm run release` (makeRelease, as test/src/release/main.ts wires it) into the
// bed's registry pushes our eight images and the chart there; Helm then installs the workload controller from that
// chart alone (oci://, nothing from the checkout), its pods run the pushed image at the digest the release recorded,
// and an ensemble becomes Ready. The kubectl manifest pins every image by that digest, after the CRDs.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberSelectorOf } from '@zk-oam/apis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { imageOptions } from '../src/bed/bed.js';
import { IMAGE_NAMES } from '../src/bed/controller-images.js';
import { repoRoot } from '../src/bed/paths.js';
import { ControllerPods } from '../src/controllers/controller-pods.js';
import { DEFAULT_INSTALL, installedImages } from '../src/controllers/install.js';
import { builtBy } from '../src/controllers/go-built.js';
import { helm } from '../src/controllers/helm.js';
import { bedWorkloadSpec, waitFor, WorkloadClient } from '../src/controllers/index.js';
import { buildImages } from '../src/images/build-images.js';
import { makeRelease, type Release } from '../src/release/release.js';
import { releaseVersion } from '../src/release/version.js';
import { workerBed } from '../src/worker-bed.js';
import { ensembleTruth, settledAt } from './scale-support.js';

const bed = workerBed();
const suffix = Date.now().toString(36);
const registry = `${bed.registry}/zk-oam-release-${suffix}`;
const releaseName = 'zk-release';
const releaseNamespace = `zk-oam-release-${suffix}`;
const namespace = `release-ensembles-${suffix}`;
const name = 'zk';
const controllers = new ControllerPods(bed, { namespace: releaseNamespace, release: releaseName });
const client = new WorkloadClient(bed);
const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(name) })).items;
let outDir = '';
let release: Release;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'zkoam-release-test-'));
  const log = pino({ level: 'warn' });
  release = await makeRelease({
    repo: repoRoot(),
    outDir,
    registry,
    buildImages: () => buildImages(imageOptions(log)),
    helm: builtBy('helm'),
    kubectl: join(bed.binDir, 'kubectl'),
    progress: (line) => log.info(line),
  });
  await client.createNamespace(releaseNamespace);
  await client.createNamespace(namespace);
});

afterAll(async () => {
  await helm(['uninstall', releaseName, '--namespace', releaseNamespace, '--wait'], bed).catch(() => undefined);
  await client.deleteNamespace(namespace);
  await client.deleteNamespace(releaseNamespace);
  await rm(outDir, { recursive: true, force: true });
});

describe('a release made by npm run release', () => {
  it('pushes our eight images at the version, each served at the digest it was built as, and the chart', async () => {
    const version = releaseVersion(repoRoot());
    expect(release.images.map((image) => image.reference)).toStrictEqual(IMAGE_NAMES.map((image) => `${registry}/${image}:${version}`));
    expect(release.chart.pushedTo).toBe(`oci://${registry}`);
    const shown = await helm(['show', 'chart', `oci://${registry}/zk-oam`, '--version', version, '--plain-http']);
    expect(shown).toMatch(new RegExp(`^appVersion: ${version.replaceAll('.', '\\.')}$`, 'm'));
  });

  it('writes a kubectl manifest with the CRDs first and every image pinned by its digest, and the CRDs alone', async () => {
    const objects = parseAllDocuments(await readFile(release.manifest, 'utf8')).map((document) => document.toJS() as { kind: string });
    const firstOther = objects.findIndex((object) => object.kind !== 'CustomResourceDefinition');
    expect(objects.slice(firstOther).some((object) => object.kind === 'CustomResourceDefinition')).toBe(false);
    const images = [...(await readFile(release.manifest, 'utf8')).matchAll(/image: (\S+)/g)].map(([, image]) => image).filter((image) => image?.startsWith(registry));
    // The manifest is deploy/'s default install; each of its images at the digest the release pushed.
    const installed: readonly string[] = installedImages(DEFAULT_INSTALL);
    const pinned = release.images.filter((image) => installed.includes(image.name)).map((image) => `${registry}/${image.name}@${image.digest}`);
    expect(new Set(images)).toStrictEqual(new Set(pinned));
    const crds = parseAllDocuments(await readFile(release.crds, 'utf8')).map((document) => (document.toJS() as { metadata: { name: string } }).metadata.name);
    expect(crds).toEqual(expect.arrayContaining(['zookeeperworkloads.workload.zookeeper.zkoam.dev', 'applicationconfigurations.core.oam.dev']));
  });

  it('installs with Helm from the pushed chart alone, runs the pushed image at its digest, and an ensemble becomes Ready', async () => {
    const version = releaseVersion(repoRoot());
    // The bed's CRDs may have been applied with kubectl by other tests: the release adopts them.
    await helm(
      ['install', releaseName, `oci://${registry}/zk-oam`, '--version', version, '--plain-http', '--namespace', releaseNamespace, '--take-ownership', '--set', 'install=separate', '--set', 'scale.enabled=false', '--set', 'rolling.enabled=false', '--set', 'appconfig.enabled=false', '--set', 'znode.enabled=false', '--set', `watchNamespaces={${namespace}}`],
      bed,
    );
    const workload = release.images.find((image) => image.name === 'workload');
    const pods = await controllers.waitReady('workload');
    expect(pods.map((pod) => [pod.image, pod.imageID])).toStrictEqual(Array(2).fill([workload?.reference, `${registry}/workload@${workload?.digest ?? ''}`]));
    await client.create(namespace, name, bedWorkloadSpec({ replicas: 1 }));
    await waitFor('a Ready 1-member ensemble', () => ensembleTruth(listPods), (truth) => settledAt(truth, 1), 300_000, 1_000);
  });
});
