// A bed node's pulls (test/src/agent/node-images.ts) from a real registry (Debian's docker-registry): an image named by
// its upstream reference comes through the mirror, by digest; the pull policies behave as the kubelet's when the tag
// moves in the registry; an image the registry does not have, or one that must not be pulled, fails with the
// kubelet's reason. The two bed ZooKeeper images stand for two versions of one image.
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageNotPresentError, ImagePullError, NodeImages } from '../src/agent/node-images.js';
import { repoRoot } from '../src/bed/paths.js';
import { startRegistry, type Registry } from '../src/bed/registry.js';
import { ImageBundles } from '../src/containers/image-bundles.js';
import { mirroredReference } from '../src/images/image-reference.js';
import { ImageStore } from '../src/images/image-store.js';
import { imageConfig } from '../src/images/oci-layout.js';
import { pushImage } from '../src/images/registry-copy.js';
import { buildZookeeperImages, type ZookeeperImageName } from '../src/images/zookeeper-images.js';
import type { BuiltImage } from '../src/images/build-images.js';
import { bedCacheDir } from '../src/cache-dir.js';

/** An upstream reference, as a pod names it; the node reaches it only through the mirror. */
const REFERENCE = 'registry.example/zk-oam/pull-test:3.9';
const shared = new ImageStore(bedCacheDir(process.env));
let dir = '';
let registry: Registry | undefined;
let first: BuiltImage<ZookeeperImageName> | undefined;
let second: BuiltImage<ZookeeperImageName> | undefined;
let node: NodeImages | undefined;
let nodeStore: ImageStore | undefined;

function mirror(): string {
  if (registry === undefined) throw new Error('the registry did not start');
  return registry.host;
}

async function digestOf(image: BuiltImage<ZookeeperImageName> | undefined): Promise<string> {
  if (image === undefined) throw new Error('the image was not built');
  return (await imageConfig(image.layout, image.name)).digest;
}

async function tagInRegistry(image: BuiltImage<ZookeeperImageName> | undefined): Promise<void> {
  if (image === undefined) throw new Error('the image was not built');
  await pushImage(image.layout, image.name, mirroredReference(REFERENCE, mirror()));
}

function theNode(): NodeImages {
  if (node === undefined) throw new Error('the node was not made');
  return node;
}

beforeAll(async () => {
  const built = await buildZookeeperImages({ repo: repoRoot(), store: shared, progress: (line) => console.log(`[images] ${line}`) });
  first = built.find((image) => image.name === 'zookeeper-debian');
  second = built.find((image) => image.name === 'zookeeper-release');
  dir = await mkdtemp(join(tmpdir(), 'zk-oam-pulls-'));
  registry = await startRegistry({ bedDir: dir, log: pino({ level: 'silent' }), timeoutMs: 30_000 });
  // The node keeps its pulls apart from the bed's cache, so that what it has can only have come from this registry.
  nodeStore = new ImageStore(join(dir, 'node'));
  node = new NodeImages(mirror(), nodeStore, new ImageBundles(shared), {});
  await tagInRegistry(first);
});

afterAll(async () => {
  await registry?.stop();
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('a bed node pulling through the registry', () => {
  it('IfNotPresent pulls the tag through the mirror, keeps the image by its digest, and reports it as <repository>@<digest>', async () => {
    const digest = await digestOf(first);
    const image = await theNode().image(REFERENCE, 'IfNotPresent');
    expect(image.imageID).toBe(`registry.example/zk-oam/pull-test@${digest}`);
    expect(image.bundle.config.digest).toBe(digest);
    expect(existsSync(join(nodeStore?.pulled(digest) ?? '', 'index.json'))).toBe(true);
  });

  it('when the tag moves, IfNotPresent keeps the image the node has, Always takes the new one, and Never what is present', async () => {
    await tagInRegistry(second);
    expect((await theNode().image(REFERENCE, 'IfNotPresent')).imageID).toMatch(await digestOf(first));
    expect((await theNode().image(REFERENCE, 'Always')).imageID).toMatch(await digestOf(second));
    expect((await theNode().image(REFERENCE, 'Never')).imageID).toMatch(await digestOf(second));
  });

  it('Never, for an image the node never pulled, is ErrImageNeverPull’s error, and asks no registry', async () => {
    await expect(theNode().image('registry.example/zk-oam/never-pulled:1', 'Never')).rejects.toThrow(ImageNotPresentError);
    // A node whose mirror does not answer: a pull would fail with ImagePullError.
    const unreachable = new NodeImages('127.0.0.1:1', new ImageStore(join(dir, 'other-node')), new ImageBundles(shared), {});
    await expect(unreachable.image(REFERENCE, 'Never')).rejects.toThrow(ImageNotPresentError);
    await expect(unreachable.image(REFERENCE, 'IfNotPresent')).rejects.toThrow(ImagePullError);
  });

  it('an image the registry does not have is a pull error that names the image and the registry’s answer', async () => {
    const failure = theNode().image('registry.example/zk-oam/does-not-exist:1', 'IfNotPresent');
    await expect(failure).rejects.toThrow(ImagePullError);
    await expect(failure).rejects.toThrow(/registry\.example\/zk-oam\/does-not-exist:1.*(manifest unknown|not found)/is);
  });
});
