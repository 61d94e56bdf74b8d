// KubeVela's core controller on the bed: its CRDs (from the module it was built from, test/kubevela/build.sh) and the
// definitions in deploy/kubevela installed, vela-core run out of cluster as the bed's admin, without its webhooks.
// KubeVela's CRDs for TraitDefinition and WorkloadDefinition (core.oam.dev, v1beta1) share their names with the OAM
// v1alpha2 CRDs of deploy/oam/crds: one cluster holds either, so installKubeVela() removes ours first, and
// uninstallKubeVela() puts them back.
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';
import { freePort } from '../bed/ports.js';
import { builtBy } from '../controllers/go-built.js';
import { kubectl } from '../controllers/kubectl.js';
import { startLoggedProcess, type LoggedProcess } from '../controllers/logged-process.js';
import { applyManifests, crdNamesIn, installCrdsFrom, installOam, readManifests, repoRoot } from '../controllers/manifests.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';

/** Where KubeVela looks for definitions every namespace may use (its --system-definition-namespace default). */
export const SYSTEM_DEFINITION_NAMESPACE = 'vela-system';

type Bed = Pick<BedInfo, 'binDir' | 'kubeconfig' | 'dir'>;

function velaDir(): string {
  return builtBy('kubevela');
}

/** KubeVela's CRDs (established), the vela-system namespace and our definitions in it. */
export async function installKubeVela(bed: Bed): Promise<void> {
  const crds = join(velaDir(), 'crds');
  const ours = new Set(await crdNamesIn(join(repoRoot, 'deploy/oam/crds')));
  const shared = (await crdNamesIn(crds)).filter((name) => ours.has(name));
  await kubectl(bed, ['delete', 'crd', '--ignore-not-found', '--wait', ...shared]);
  await installCrdsFrom(bed, crds);
  await applyManifests(bed, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: SYSTEM_DEFINITION_NAMESPACE } }]);
  const definitions = (await readManifests(join(repoRoot, 'deploy/kubevela'))).map((definition) => withNamespace(definition, SYSTEM_DEFINITION_NAMESPACE));
  await untilServed('the KubeVela definitions applied', () => applyManifests(bed, definitions));
}

/**
 * A CRD deleted and created again under the same name is Established a moment before the apiserver serves it (writes
 * answer 404 until then), so what follows a swap of CRDs is retried for a while.
 */
async function untilServed(what: string, write: () => Promise<void>): Promise<void> {
  await waitFor(what, () => write().then(() => true), (done) => done, 60_000, 1_000);
}

function withNamespace(object: Record<string, unknown>, namespace: string): Record<string, unknown> {
  return { ...object, metadata: { ...(object['metadata'] as Record<string, unknown>), namespace } };
}

/** Removes KubeVela's CRDs and puts back the OAM v1alpha2 CRDs and definitions installKubeVela() removed. */
export async function uninstallKubeVela(bed: Bed): Promise<void> {
  await kubectl(bed, ['delete', 'crd', '--ignore-not-found', '--wait', ...(await crdNamesIn(join(velaDir(), 'crds')))]);
  await untilServed('the OAM v1alpha2 kinds served again', () => installOam(bed));
}

/** vela-core, ready (its /readyz answers 200). */
export async function startVelaCore(bed: Bed): Promise<LoggedProcess> {
  const healthPort = await freePort();
  const velaCore = await startLoggedProcess(bed, 'vela-core', join(velaDir(), 'vela-core'), [
    `--health-addr=127.0.0.1:${String(healthPort)}`,
    '--metrics-addr=0',
    '--use-webhook=false',
    '--enable-leader-election=false',
    `--system-definition-namespace=${SYSTEM_DEFINITION_NAMESPACE}`,
  ]);
  await waitFor(
    'vela-core ready',
    async () => (await fetch(`http://127.0.0.1:${String(healthPort)}/readyz`)).status,
    (status) => status === 200,
    120_000,
    LOCAL_POLL_INTERVAL_MS,
    () => (velaCore.exited() ? new Error(`vela-core exited while starting; see ${velaCore.logFile}`) : undefined),
  );
  return velaCore;
}
