// The committed generated files (CRD YAML, API reference, troubleshooting guide) must be what the sources generate now,
// and every CRD schema must be structural.
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { crdManifests, generatedFiles, oamCrdManifests } from './manifests.js';
import type { JsonSchemaProps } from './types.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Paths of nodes that break the apiserver's structural rules. */
function nonStructuralNodes(node: JsonSchemaProps, path: string): string[] {
  const problems: string[] = [];
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  if (node.type === undefined && !intOrString) problems.push(`${path}: no type`);
  if (node.anyOf !== undefined && !intOrString) problems.push(`${path}: anyOf`);
  if (node.properties !== undefined && node.additionalProperties !== undefined) problems.push(`${path}: properties and additionalProperties`);
  for (const [name, child] of Object.entries(node.properties ?? {})) problems.push(...nonStructuralNodes(child, `${path}.${name}`));
  if (node.items !== undefined) problems.push(...nonStructuralNodes(node.items, `${path}[]`));
  if (node.additionalProperties !== undefined) problems.push(...nonStructuralNodes(node.additionalProperties, `${path}.*`));
  return problems;
}

describe('generated CRDs', () => {
  it.each(generatedFiles().map((file) => [file.path, file.content]))(
    '%s is what `npm run generate` writes now (from the zod schemas and the reason catalogs)',
    async (path, expected) => {
      const committed = await readFile(join(repositoryRoot, path), 'utf8').catch(() => '(missing)');
      expect(committed, `${path} is stale: run \`npm run generate\` and commit the result`).toBe(expected);
    },
  );

  it('generates the same output twice', () => {
    expect(generatedFiles()).toEqual(generatedFiles());
  });

  it.each([...crdManifests(), ...oamCrdManifests()].map((crd) => [crd.metadata.name, crd]))(
    '%s has a structural schema',
    (_name, crd) => {
      for (const version of crd.spec.versions) {
        expect(nonStructuralNodes(version.schema.openAPIV3Schema, crd.spec.names.kind)).toEqual([]);
      }
    },
  );

  it('gives every ZooKeeper kind a status subresource, the zookeeper category and a short name', () => {
    const summary = crdManifests().map((crd) => ({
      name: crd.metadata.name,
      shortNames: crd.spec.names.shortNames,
      inZookeeperCategory: crd.spec.names.categories?.includes('zookeeper'),
      status: crd.spec.versions[0]?.subresources?.status,
      scale: crd.spec.versions[0]?.subresources?.scale?.specReplicasPath,
    }));
    expect(summary).toEqual([
      { name: 'zookeeperworkloads.workload.zookeeper.zkoam.dev', shortNames: ['zkw'], inZookeeperCategory: true, status: {}, scale: '.spec.replicas' },
      { name: 'zookeeperscales.scale.zookeeper.zkoam.dev', shortNames: ['zks'], inZookeeperCategory: true, status: {}, scale: '.spec.replicas' },
      { name: 'zookeeperrollings.rolling.zookeeper.zkoam.dev', shortNames: ['zkr'], inZookeeperCategory: true, status: {}, scale: undefined },
      { name: 'zookeeperznodes.znode.zookeeper.zkoam.dev', shortNames: ['zkz'], inZookeeperCategory: true, status: {}, scale: undefined },
      { name: 'zookeeperbackups.backup.zookeeper.zkoam.dev', shortNames: ['zkb'], inZookeeperCategory: true, status: {}, scale: undefined },
    ]);
  });

  it('marks quantities as int-or-string with the quantity pattern', () => {
    const spec = crdManifests()[0]?.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec'];
    const size = spec?.properties?.['storage']?.properties?.['size'];
    expect(size).toMatchObject({
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      default: '1Gi',
    });
    expect(size?.pattern).toMatch(/^\^/);
  });
});
