// One release, made from the working tree: the eight images built from the Dockerfile (tagged with the version, and
// known by digest), the chart packaged by Helm, the kubectl install manifest and the CRD bundle, and release notes from
// CHANGELOG.md, all in one directory. With a registry it pushes the images and the chart (an OCI artefact) there, and
// the chart and the manifest name that registry; without one they name ghcr.io/zk-oam, where an official release goes.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { SHIPPED_REGISTRY } from '../bed/controller-images.js';
import { commandOutput } from '../images/command.js';
import type { BuiltImage } from '../images/build-images.js';
import { imageConfig } from '../images/oci-layout.js';
import { isLoopbackRegistry, manifestDigest, pushedReference, pushImages } from '../images/registry-copy.js';
import { changelogSection } from './changelog.js';
import { crdsFirst, crdsOnly, installOverlay, type PinnedImage } from './install-manifest.js';
import { releaseVersion, versionDisagreements } from './version.js';

export interface ReleaseOptions {
  readonly repo: string;
  readonly outDir: string;
  /** host[:port]/prefix to push to; the images go to <registry>/<name>:<version>, the chart to <registry>/zk-oam. */
  readonly registry: string | undefined;
  readonly buildImages: () => Promise<BuiltImage[]>;
  readonly helm: string;
  readonly kubectl: string;
  readonly progress: (line: string) => void;
}

export interface ReleasedImage extends PinnedImage {
  /** <registry>/<name>:<version> */
  readonly reference: string;
}

export interface Release {
  readonly version: string;
  readonly registry: string;
  readonly images: readonly ReleasedImage[];
  /** The packaged chart, and where it was pushed (`oci://<registry>/zk-oam`, with --version) when it was. */
  readonly chart: { readonly file: string; readonly pushedTo: string | undefined };
  /** zk-oam-<version>.yaml, crds-<version>.yaml, RELEASE-NOTES.md in outDir. */
  readonly manifest: string;
  readonly crds: string;
  readonly notes: string;
}

export class VersionDisagreementError extends Error {
  override readonly name = 'VersionDisagreementError';
  constructor(version: string, disagreements: readonly string[]) {
    super(`the release is ${version} (package.json), but:\n  ${disagreements.join('\n  ')}`);
  }
}

export async function makeRelease(options: ReleaseOptions): Promise<Release> {
  const { repo, outDir, progress } = options;
  const version = releaseVersion(repo);
  const disagreements = versionDisagreements(repo, version);
  if (disagreements.length > 0) throw new VersionDisagreementError(version, disagreements);
  const changes = changelogSection(await readFile(join(repo, 'CHANGELOG.md'), 'utf8'), version);
  const registry = options.registry ?? SHIPPED_REGISTRY;
  await mkdir(outDir, { recursive: true });
  progress(`release ${version} into ${outDir}, for ${registry}`);

  const images = await releasedImages(options, registry, version);
  const chart = await packageChart(options, registry, version);
  const work = await mkdtemp(join(tmpdir(), 'zkoam-release-'));
  try {
    const overlayDir = join(work, 'overlay');
    await mkdir(overlayDir);
    await writeFile(join(overlayDir, 'kustomization.yaml'), stringify(installOverlay({ deployDir: join(repo, 'deploy'), overlayDir, registry, images })));
    const manifest = join(outDir, `zk-oam-${version}.yaml`);
    await writeFile(manifest, crdsFirst(await commandOutput(options.kubectl, ['kustomize', overlayDir])));
    const crds = join(outDir, `crds-${version}.yaml`);
    const oamCrdsDir = join(repo, 'deploy', 'oam', 'crds');
    const oamCrds = await Promise.all((await readdir(oamCrdsDir)).filter((file) => file.endsWith('.yaml')).map((file) => readFile(join(oamCrdsDir, file), 'utf8')));
    await writeFile(crds, crdsOnly(await commandOutput(options.kubectl, ['kustomize', join(repo, 'deploy', 'crds')]), ...oamCrds));
    progress(`install manifest ${manifest}, CRDs ${crds}`);
    const notes = join(outDir, 'RELEASE-NOTES.md');
    await writeFile(notes, releaseNotes({ version, registry, images, chart, changes }));
    return { version, registry, images, chart, manifest, crds, notes };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Built (or found cached), pushed when there is a registry, each known by the digest the registry serves. */
async function releasedImages(options: ReleaseOptions, registry: string, version: string): Promise<ReleasedImage[]> {
  const built = await options.buildImages();
  if (options.registry !== undefined) await pushImages(built, options.registry, options.progress);
  return Promise.all(
    built.map(async (image) => {
      const reference = pushedReference(registry, image);
      if (!reference.endsWith(`:${version}`)) throw new Error(`${image.reference} is not tagged ${version}`);
      const { digest } = await imageConfig(image.layout, image.name);
      if (options.registry !== undefined) {
        const served = await manifestDigest(reference);
        if (served !== digest) throw new Error(`${reference} is served as ${served}, but was built as ${digest}`);
      }
      return { name: image.name, reference, digest };
    }),
  );
}

/** The chart at the version, its images' registry set to the release's, packaged and (with a registry) pushed. */
async function packageChart(options: ReleaseOptions, registry: string, version: string): Promise<Release['chart']> {
  const work = await mkdtemp(join(tmpdir(), 'zkoam-chart-'));
  try {
    const chartDir = join(work, 'zk-oam');
    await cp(join(options.repo, 'charts', 'zk-oam'), chartDir, { recursive: true });
    const valuesFile = join(chartDir, 'values.yaml');
    const values = parseDocument(await readFile(valuesFile, 'utf8'));
    values.setIn(['global', 'image', 'registry'], registry);
    await writeFile(valuesFile, values.toString());
    await commandOutput(options.helm, ['package', chartDir, '--version', version, '--app-version', version, '--destination', options.outDir]);
    const file = join(options.outDir, `zk-oam-${version}.tgz`);
    options.progress(`chart ${file}`);
    if (options.registry === undefined) return { file, pushedTo: undefined };
    const pushedTo = `oci://${options.registry}`;
    await commandOutput(options.helm, ['push', file, pushedTo, ...(isLoopbackRegistry(options.registry) ? ['--plain-http'] : [])]);
    options.progress(`chart pushed to ${pushedTo}/zk-oam:${version}`);
    return { file, pushedTo };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function releaseNotes(input: { version: string; registry: string; images: readonly ReleasedImage[]; chart: Release['chart']; changes: string }): string {
  const { version, registry, images, chart } = input;
  const chartSource = chart.pushedTo === undefined ? `zk-oam-${version}.tgz` : `${chart.pushedTo}/zk-oam --version ${version}`;
  return [
    `# zk-oam ${version}`,
    '',
    input.changes,
    '',
    '## Images',
    '',
    '| image | digest |',
    '| --- | --- |',
    ...images.map((image) => `| \`${image.reference}\` | \`${image.digest}\` |`),
    '',
    '## Install',
    '',
    'With Helm (the chart installs and upgrades the ZooKeeper CRDs, and keeps them on uninstall):',
    '',
    '```sh',
    `helm upgrade --install zk-oam ${chartSource} --namespace zk-oam-system --create-namespace`,
    '```',
    '',
    `With kubectl (images pinned by digest in ${registry}; the CRDs first, then everything else):`,
    '',
    '```sh',
    `kubectl apply --server-side -f crds-${version}.yaml`,
    'kubectl wait --for condition=established crd --all',
    `kubectl apply --server-side -f zk-oam-${version}.yaml`,
    '```',
    '',
    'Upgrading from an earlier release: docs/upgrading.md.',
    '',
  ].join('\n');
}
