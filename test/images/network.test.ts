// The pod network's binaries (test/network/build.sh) answer as the bed runs them, and the CoreDNS image holds the
// static CoreDNS as its entrypoint, run as a user that is not root. Built on first use (minutes); cached, seconds.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCommand } from '../src/controllers/command.js';
import type { BuiltImage } from '../src/images/build-images.js';
import { ImageStore } from '../src/images/image-store.js';
import { imageConfig } from '../src/images/oci-layout.js';
import { unpackImage } from '../src/images/runc-bundle.js';
import { resolveNetworkBinaries, type NetworkBinaries } from '../src/network/binaries.js';
import { buildCorednsImage, type COREDNS_IMAGE_NAME, COREDNS_IMAGE_REFERENCE } from '../src/network/coredns-image.js';
import { bedCacheDir } from '../src/cache-dir.js';

/**
 * What test/controlplane/coredns/main.go compiles in, and nothing else (not forward, not the cloud plugins): the seven it
 * imports, and three they bring, which are no directives there, so no Corefile can name them: metadata (cache,
 * kubernetes and log use it), prometheus (CoreDNS's server itself counts with it) and transfer (kubernetes').
 */
const COREDNS_PLUGINS = ['cache', 'errors', 'health', 'kubernetes', 'loadbalance', 'log', 'metadata', 'prometheus', 'ready', 'transfer'];
const cniVersionSchema = z.object({ cniVersion: z.string(), supportedVersions: z.array(z.string()) });

const store = new ImageStore(bedCacheDir(process.env));
let binaries: NetworkBinaries;
let image: BuiltImage<typeof COREDNS_IMAGE_NAME>;

beforeAll(async () => {
  binaries = await resolveNetworkBinaries();
  image = await buildCorednsImage({ store, progress: (line) => console.log(`[images] ${line}`) }, binaries.coredns);
});

async function output(executable: string, args: readonly string[], env?: Record<string, string>): Promise<string> {
  const result = await runCommand(executable, args, '', 30_000, { env });
  expect(result, result.stderr).toMatchObject({ code: 0 });
  return result.stdout;
}

describe('the pod network built by test/network/build.sh', () => {
  it('CoreDNS lists only the plugins the cluster DNS uses', async () => {
    const plugins = (await output(binaries.coredns, ['-plugins'])).split('\n').filter((line) => line !== '');
    expect(plugins.sort()).toEqual(COREDNS_PLUGINS);
    expect(plugins).not.toContain('forward');
  });

  it('CoreDNS refuses a Corefile that names a plugin it lacks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zk-oam-corefile-'));
    try {
      await writeFile(join(dir, 'Corefile'), '.:10053 {\n  forward . 127.0.0.1\n}\n');
      const result = await runCommand(binaries.coredns, ['-conf', join(dir, 'Corefile')], '', 30_000);
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toContain("Unknown directive 'forward'");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('CoreDNS is the version its image is published as', async () => {
    const [, version] = COREDNS_IMAGE_REFERENCE.split(':v');
    expect(await output(binaries.coredns, ['-version'])).toContain(`CoreDNS-${version ?? '?'}\n`);
  });

  it.each(['bridge', 'host-local'])('the CNI %s plugin speaks CNI 1.1.0', async (plugin) => {
    const answer = await output(join(binaries.cniBinDir, plugin), [], { CNI_COMMAND: 'VERSION' });
    expect(cniVersionSchema.parse(JSON.parse(answer)).supportedVersions).toContain('1.1.0');
  });

  it("kube-proxy is at the control plane's version", async () => {
    expect(await output(binaries.kubeProxy, ['--version'])).toBe('Kubernetes v1.36.3\n');
  });
});

describe('the CoreDNS image', () => {
  it('runs /coredns as uid and gid 65532', async () => {
    const config = await imageConfig(image.layout, image.name);
    expect(config).toMatchObject({ entrypoint: ['/coredns'], user: '65532:65532' });
  });

  it('started by runc, runs the binary with nothing else in the image: it is static', async () => {
    const unpacked = await unpackImage(store, image.layout, image.name);
    try {
      const result = await unpacked.run({ args: ['/coredns', '-version'] });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^CoreDNS-/);
    } finally {
      await unpacked.remove();
    }
  });
});
