// Installs what a controller needs before it runs: our CRDs (kubectl apply --server-side, as a person would: client-node's
// typed models drop x-kubernetes-* keys) and the RBAC shipped in deploy/<controller>/ (Deployments are skipped: the
// controller runs as a local process here).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import type { BedInfo } from '../bed/index.js';
import { kubectl } from './kubectl.js';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const FIELD_MANAGER = 'zk-oam-testbed';

const manifestSchema = z.looseObject({ kind: z.string() });

/** The manifests of a directory; its kustomization.yaml is kustomize's, not an object for the apiserver. */
async function yamlFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory);
  return entries
    .filter((entry) => (entry.endsWith('.yaml') || entry.endsWith('.yml')) && entry !== 'kustomization.yaml')
    .sort()
    .map((entry) => join(directory, entry));
}

/** Every document of every YAML file in `directory`, except the kinds in `skipKinds`. */
export async function readManifests(directory: string, skipKinds: readonly string[] = []): Promise<Record<string, unknown>[]> {
  const objects: Record<string, unknown>[] = [];
  for (const file of await yamlFiles(directory)) {
    for (const document of parseAllDocuments(await readFile(file, 'utf8'))) {
      const object: unknown = document.toJS();
      if (object === null || object === undefined) continue;
      const parsed = manifestSchema.parse(object);
      if (!skipKinds.includes(parsed.kind)) objects.push(parsed);
    }
  }
  // Namespaces first: the namespaced objects of the same directory live in them.
  return [...objects.filter((o) => o['kind'] === 'Namespace'), ...objects.filter((o) => o['kind'] !== 'Namespace')];
}

export async function applyManifests(bed: Pick<BedInfo, 'binDir' | 'kubeconfig'>, objects: readonly Record<string, unknown>[]): Promise<void> {
  const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
  await kubectl(bed, ['apply', '--server-side', '--force-conflicts', `--field-manager=${FIELD_MANAGER}`, '-f', '-'], list);
}

const crdNameSchema = z.looseObject({ metadata: z.looseObject({ name: z.string() }) });

function crdNames(objects: readonly Record<string, unknown>[]): string[] {
  return objects.filter((object) => object['kind'] === 'CustomResourceDefinition').map((crd) => crdNameSchema.parse(crd).metadata.name);
}

/** The names of the CRDs in `directory`. */
export async function crdNamesIn(directory: string): Promise<string[]> {
  return crdNames(await readManifests(directory));
}

/** Applies the CRDs in `directory` (and what comes with them, such as deploy/crds' user roles) and waits until every CRD is Established. */
export async function installCrdsFrom(bed: Pick<BedInfo, 'binDir' | 'kubeconfig'>, directory: string): Promise<void> {
  const objects = await readManifests(directory);
  await applyManifests(bed, objects);
  const names = crdNames(objects).map((name) => `crd/${name}`);
  await kubectl(bed, ['wait', '--for=condition=Established', '--timeout=60s', ...names]);
}

/** Applies deploy/crds and waits until every CRD is Established. */
export async function installCrds(bed: Pick<BedInfo, 'binDir' | 'kubeconfig'>): Promise<void> {
  await installCrdsFrom(bed, join(repoRoot, 'deploy/crds'));
}

/** Applies the OAM CRDs (deploy/oam/crds), waits until they are Established, then the definitions in deploy/oam. */
export async function installOam(bed: Pick<BedInfo, 'binDir' | 'kubeconfig'>): Promise<void> {
  await installCrdsFrom(bed, join(repoRoot, 'deploy/oam/crds'));
  await applyManifests(bed, await readManifests(join(repoRoot, 'deploy/oam')));
}

/**
 * Applies deploy/namespace and deploy/<controller>/*.yaml without its Deployment and Service: the ServiceAccount and its
 * RBAC; and what the kustomizations inside it build (deploy/manager/controller-rbac: each controller's ServiceAccount and
 * RBAC, which the manager runs it as), likewise.
 */
export async function installControllerRbac(bed: Pick<BedInfo, 'binDir' | 'kubeconfig'>, controller: string): Promise<void> {
  const directory = join(repoRoot, 'deploy', controller);
  await applyManifests(bed, await readManifests(join(repoRoot, 'deploy', 'namespace')));
  const objects = await readManifests(directory, ['Deployment', 'Service']);
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const built = parseAllDocuments(await kubectl(bed, ['kustomize', join(directory, entry.name)])).map((document): unknown => document.toJS());
    objects.push(...built.map((object) => manifestSchema.parse(object)).filter((object) => !['Deployment', 'Service'].includes(object.kind)));
  }
  await applyManifests(bed, objects);
}

/** What the Deployment sets of the Node runtime itself; a process started here runs with the same heap as the pod. */
export const RUNTIME_ENV_NAMES = ['NODE_OPTIONS', 'MALLOC_ARENA_MAX'] as const;

const deploymentEnvSchema = z.looseObject({
  spec: z.looseObject({
    template: z.looseObject({
      spec: z.looseObject({
        containers: z.array(z.looseObject({ env: z.array(z.looseObject({ name: z.string(), value: z.string().optional() })).optional() })).min(1),
      }),
    }),
  }),
});

/** The literal values deploy/<deployable>/deployment.yaml gives its container's variables `names`. */
async function deploymentEnv(deployable: string, names: readonly string[]): Promise<Record<string, string>> {
  const [deployment] = (await readManifests(join(repoRoot, 'deploy', deployable))).filter((object) => object['kind'] === 'Deployment');
  const env = deploymentEnvSchema.parse(deployment).spec.template.spec.containers[0]?.env ?? [];
  return Object.fromEntries(env.flatMap((entry) => (names.includes(entry.name) && entry.value !== undefined ? [[entry.name, entry.value]] : [])));
}

/** The literal values deploy/<controller>/deployment.yaml gives its container for RUNTIME_ENV_NAMES. */
export async function deploymentRuntimeEnv(controller: string): Promise<Record<string, string>> {
  return deploymentEnv(controller, RUNTIME_ENV_NAMES);
}

/**
 * What deploy/manager's Deployment gives the manager beside the Node runtime's settings: the controllers it runs
 * (CONTROLLERS), each acting as its own ServiceAccount (CONTROLLER_SERVICE_ACCOUNT_PREFIX); the namespace and the token
 * directory come from the pod, so the caller gives them.
 */
export async function managerDeploymentEnv(): Promise<Record<string, string>> {
  return deploymentEnv('manager', ['CONTROLLERS', 'CONTROLLER_SERVICE_ACCOUNT_PREFIX']);
}

/** The node arguments of the Dockerfile's ENTRYPOINT (`["node", ...args, "/app/main.mjs"]`): the V8 flags NODE_OPTIONS refuses. */
export function entrypointNodeArgs(dockerfile: string): string[] {
  const entrypoints = [...dockerfile.matchAll(/^ENTRYPOINT\s+(\[.*\])\s*$/gm)];
  const last = entrypoints.at(-1)?.[1];
  if (last === undefined) throw new Error('the Dockerfile has no ENTRYPOINT in JSON form');
  const command = z.array(z.string()).parse(JSON.parse(last));
  if (command[0] !== 'node' || command.at(-1) !== '/app/main.mjs') throw new Error(`the Dockerfile's ENTRYPOINT is not node <args> /app/main.mjs: ${last}`);
  return command.slice(1, -1);
}

/** What the images run node with, so a controller run here as a local process runs as in its pod. */
export async function imageNodeArgs(): Promise<string[]> {
  return entrypointNodeArgs(await readFile(join(repoRoot, 'Dockerfile'), 'utf8'));
}
