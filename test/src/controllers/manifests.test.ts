import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IMAGE_NAMES } from '../bed/controller-images.js';
import { deploymentRuntimeEnv, entrypointNodeArgs, readManifests, repoRoot } from './manifests.js';

const limitSchema = z.looseObject({
  spec: z.looseObject({
    template: z.looseObject({
      spec: z.looseObject({ containers: z.array(z.looseObject({ resources: z.looseObject({ limits: z.looseObject({ memory: z.string() }) }) })) }),
    }),
  }),
});

async function memoryLimitMiB(controller: string): Promise<number> {
  const [deployment] = (await readManifests(join(repoRoot, 'deploy', controller))).filter((object) => object['kind'] === 'Deployment');
  const memory = limitSchema.parse(deployment).spec.template.spec.containers[0]?.resources.limits.memory ?? '';
  const mebibytes = /^(\d+)Mi$/.exec(memory)?.[1];
  if (mebibytes === undefined) throw new Error(`memory limit ${memory} is not in Mi`);
  return Number(mebibytes);
}

describe("the Node runtime settings of our Deployments (the controllers' and the console's)", () => {
  it.each(IMAGE_NAMES)('%s: the Deployment caps the heap at half its memory limit, and local runs take the same settings', async (controller) => {
    const env = await deploymentRuntimeEnv(controller);
    const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(env['NODE_OPTIONS'] ?? '')?.[1]);
    expect(heapMiB).toBe((await memoryLimitMiB(controller)) / 2);
    expect(env['NODE_OPTIONS']).toContain('--max-semi-space-size=');
    expect(env['MALLOC_ARENA_MAX']).toBe('2');
    expect(Object.keys(env).sort()).toEqual(['MALLOC_ARENA_MAX', 'NODE_OPTIONS']);
  });
});

const bindingSchema = z.looseObject({ kind: z.string(), subjects: z.array(z.looseObject({ kind: z.string(), name: z.string() })).optional() });
const consolePodSchema = z.looseObject({
  kind: z.literal('Deployment'),
  spec: z.looseObject({ template: z.looseObject({ spec: z.looseObject({ serviceAccountName: z.string(), automountServiceAccountToken: z.boolean() }) }) }),
});

describe('deploy/console: no privilege of its own', () => {
  it('binds its ServiceAccount to nothing anywhere in deploy/, holds no role, and mounts no token', async () => {
    const shipped = await readManifests(join(repoRoot, 'deploy/console'));
    expect(shipped.map((object) => object['kind']).sort()).toEqual(['Deployment', 'Service', 'ServiceAccount']);
    const deployment = consolePodSchema.parse(shipped.find((object) => object['kind'] === 'Deployment'));
    expect(deployment.spec.template.spec).toMatchObject({ serviceAccountName: 'zk-oam-console', automountServiceAccountToken: false });
    const directories = (await readdir(join(repoRoot, 'deploy'), { withFileTypes: true })).filter(
      (entry) => entry.isDirectory() && existsSync(join(repoRoot, 'deploy', entry.name, 'kustomization.yaml')),
    );
    const everything = (await Promise.all(directories.map((entry) => readManifests(join(repoRoot, 'deploy', entry.name))))).flat();
    const bindings = everything.map((object) => bindingSchema.parse(object)).filter((object) => object.kind.endsWith('Binding'));
    expect(bindings.length).toBeGreaterThan(0);
    const subjects = bindings.flatMap((binding) => binding.subjects ?? []).map((subject) => subject.name);
    expect(subjects).not.toContain('zk-oam-console');
  });
});

describe('entrypointNodeArgs', () => {
  it('takes the arguments between node and the program from the last ENTRYPOINT', () => {
    const dockerfile = 'FROM a AS build\nENTRYPOINT ["sh"]\nFROM b\nENTRYPOINT ["node", "--max-opt=2", "/app/main.mjs"]\n';
    expect(entrypointNodeArgs(dockerfile)).toEqual(['--max-opt=2']);
  });

  it('refuses an ENTRYPOINT that does not run node on the bundle, rather than run local processes unlike the pods', () => {
    expect(() => entrypointNodeArgs('ENTRYPOINT ["/app/main.mjs"]\n')).toThrow(/not node <args> \/app\/main.mjs/);
    expect(() => entrypointNodeArgs('ENTRYPOINT node /app/main.mjs\n')).toThrow(/no ENTRYPOINT in JSON form/);
  });
});
