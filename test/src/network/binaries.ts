// Finds the binaries of the bed's pod network: the CNI plugins that wire each pod's network namespace, CoreDNS for the
// cluster DNS and kube-proxy, all built by test/network/build.sh into the cache (on first use, its progress streaming
// on stderr; cached, it answers at once).
import { join } from 'node:path';
import { assertExecutable, runBuildScript } from '../bed/binaries.js';

/** The CNI plugins build.sh builds, each a file of that name in `cniBinDir`. */
export const CNI_PLUGINS = ['bridge', 'host-local', 'loopback'] as const;

export interface NetworkBinaries {
  /** The directory of the CNI plugins (CNI_PLUGINS): the CNI_PATH they are run with. */
  readonly cniBinDir: string;
  /** CoreDNS with only the plugins the cluster DNS uses, statically linked: its image (coredns-image.ts) holds it alone. */
  readonly coredns: string;
  /** kube-proxy, at the control plane's version. */
  readonly kubeProxy: string;
}

export async function resolveNetworkBinaries(): Promise<NetworkBinaries> {
  const script = 'test/network/build.sh';
  const dir = await runBuildScript(script);
  // build.sh answers only a directory holding all of them; one that lost a file since is rebuilt once removed.
  const remedy = `remove ${dir} and run ${script} again`;
  const cniBinDir = join(dir, 'cni');
  const binaries = { cniBinDir, coredns: join(dir, 'coredns'), kubeProxy: join(dir, 'kube-proxy') };
  for (const path of [...CNI_PLUGINS.map((plugin) => join(cniBinDir, plugin)), binaries.coredns, binaries.kubeProxy]) {
    assertExecutable(path, remedy);
  }
  return binaries;
}
