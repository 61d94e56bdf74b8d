// Every manifest under deploy/ on a real apiserver: each directory's kustomization builds and every object it
// renders passes server-side dry run (schema, admission, RBAC escalation checks), the all-in-one kustomization too,
// the samples validate against the CRDs, and the pods of every Deployment and StatefulSet meet the restricted Pod
// Security Standard that deploy/namespace enforces.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES } from '../src/bed/controller-images.js';
import { installCrds, installOam, kubectl, readManifests, repoRoot } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const samplesNamespace = `samples-${Date.now().toString(36)}`;
const SYSTEM_NAMESPACE = 'zk-oam-system';
/** Every directory of deploy/ with a kustomization (the controllers' included, as they land). */
const DIRECTORIES = readdirSync(join(repoRoot, 'deploy'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(repoRoot, 'deploy', entry.name, 'kustomization.yaml')))
  .map((entry) => entry.name)
  .sort();
const allInOneSchema = z.looseObject({ resources: z.array(z.string()) });

const objectSchema = z.looseObject({ kind: z.string(), metadata: z.looseObject({ name: z.string() }) });
const podOwnerSchema = z.looseObject({
  kind: z.enum(['Deployment', 'StatefulSet']),
  metadata: z.looseObject({ name: z.string() }),
  spec: z.looseObject({
    template: z.looseObject({ spec: z.looseObject({ volumes: z.array(z.unknown()).optional() }) }),
    volumeClaimTemplates: z.array(z.looseObject({ metadata: z.looseObject({ name: z.string() }) })).optional(),
  }),
});
type PodOwner = z.infer<typeof podOwnerSchema>;

async function kustomize(directory: string): Promise<z.infer<typeof objectSchema>[]> {
  const text = await kubectl(bed, ['kustomize', join(repoRoot, 'deploy', directory)]);
  return parseAllDocuments(text).map((document) => objectSchema.parse(document.toJS()));
}

/**
 * Server-side dry run of `objects`. Forcing conflicts: on the shared bed, other tests applied some of the same objects
 * with their own field manager (a controller's RBAC, bound to its own account where deploy/manager binds the manager's),
 * and whose fields they were is not what this checks.
 */
async function dryRun(objects: readonly unknown[], namespace?: string): Promise<string> {
  const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
  return kubectl(bed, ['apply', '--server-side', '--force-conflicts', '--dry-run=server', ...(namespace === undefined ? [] : ['-n', namespace]), '-f', '-'], list);
}

/** A pod as the owner's controller would create it (volume claims stand in as emptyDirs; ServiceAccounts are not needed for the check). */
function podOf(owner: PodOwner): Record<string, unknown> {
  const { serviceAccountName: _unused, ...spec } = owner.spec.template.spec;
  const claims = (owner.spec.volumeClaimTemplates ?? []).map((claim) => ({ name: claim.metadata.name, emptyDir: {} }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pss-${owner.metadata.name}`, namespace: SYSTEM_NAMESPACE },
    spec: { ...spec, volumes: [...(spec.volumes ?? []), ...claims] },
  };
}

async function podOwners(): Promise<PodOwner[]> {
  const objects = (await Promise.all(DIRECTORIES.map(kustomize))).flat();
  return objects.filter((object) => object.kind === 'Deployment' || object.kind === 'StatefulSet').map((object) => podOwnerSchema.parse(object));
}

describe('deploy/ on a real apiserver', () => {
  beforeAll(async () => {
    await installCrds(bed);
    await installOam(bed);
    await kubectl(bed, ['apply', '--server-side', '-k', join(repoRoot, 'deploy/namespace')]);
    await kubectl(bed, ['create', 'namespace', samplesNamespace]);
  });

  it.each(DIRECTORIES)('deploy/%s builds with kustomize and every object passes server-side dry run', async (directory) => {
    const objects = await kustomize(directory);
    expect(objects.length).toBeGreaterThan(0);
    const output = await dryRun(objects);
    for (const object of objects) expect(output).toContain(`${object.metadata.name} serverside-applied (server dry run)`);
  });

  it('the all-in-one deploy/kustomization.yaml builds and passes server-side dry run: the combined install, each directory once', async () => {
    const listed = allInOneSchema.parse(parse(readFileSync(join(repoRoot, 'deploy/kustomization.yaml'), 'utf8'))).resources;
    expect(listed).toEqual(expect.arrayContaining(['namespace', 'crds', 'oam', 'nats', 'manager']));
    // The controllers' own directories are the separate install: deploy/manager holds their RBAC, bound to its account.
    const ownDirectories: readonly string[] = CONTROLLER_NAMES;
    const combined = DIRECTORIES.filter((directory) => !ownDirectories.includes(directory));
    expect(listed).toEqual(expect.arrayContaining(combined));
    expect(listed).not.toEqual(expect.arrayContaining(['workload']));
    const all = await kustomize('.');
    const parts = (await Promise.all(combined.map(kustomize))).flat();
    const key = (object: z.infer<typeof objectSchema>): string => `${object.kind}/${object.metadata.name}`;
    expect(all.map(key)).toEqual(expect.arrayContaining(parts.map(key)));
    expect(new Set(all.map(key)).size).toBe(all.length);
    await dryRun(all);
  });

  it('every sample validates against the CRDs', async () => {
    const all = await readManifests(join(repoRoot, 'deploy/samples'));
    expect(all.map((sample) => sample['kind']).sort()).toEqual([
      'Application',
      'ApplicationConfiguration',
      'Component',
      'ZookeeperRolling',
      'ZookeeperScale',
      'ZookeeperWorkload',
    ]);
    // KubeVela's CRDs are on the bed only while test/e2e/kubevela.test.ts runs KubeVela, which applies that sample.
    const samples = all.filter((sample) => sample['kind'] !== 'Application');
    const output = await dryRun(samples, samplesNamespace);
    expect(output.match(/serverside-applied \(server dry run\)/g)).toHaveLength(samples.length);
  });

  it('the pods of every Deployment and StatefulSet are admitted where restricted Pod Security is enforced', async () => {
    const owners = await podOwners();
    expect(owners.map((owner) => `${owner.kind}/${owner.metadata.name}`)).toEqual(
      expect.arrayContaining(['Deployment/zk-oam-appconfig', 'Deployment/zk-oam-console', 'Deployment/zk-oam-manager', 'Deployment/zk-oam-workload', 'StatefulSet/zk-oam-nats']),
    );
    for (const owner of owners) await dryRun([podOf(owner)]);
  });

  it('rejects a pod that is not restricted there (the check above can fail)', async () => {
    const [owner] = await podOwners();
    if (owner === undefined) throw new Error('no Deployment in deploy/');
    const pod = podOf(owner);
    const loose = { ...pod, spec: { ...z.looseObject({}).parse(pod['spec']), securityContext: {} } };
    await expect(dryRun([loose])).rejects.toThrow(/violates PodSecurity "restricted/);
  });
});
