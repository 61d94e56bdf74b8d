import { describe, expect, it } from 'vitest';
import { apiReference } from './api-reference.js';
import { crdManifests } from './manifests.js';
import type { JsonSchemaProps } from './types.js';

function leafPaths(schema: JsonSchemaProps, path: string): string[] {
  const children = Object.entries(schema.properties ?? schema.items?.properties ?? {});
  const prefix = schema.items?.properties === undefined ? path : `${path}[]`;
  if (children.length === 0) return [path];
  return children.flatMap(([name, child]) => leafPaths(child, `${prefix}.${name}`));
}

describe('the API reference', () => {
  const reference = apiReference(crdManifests());

  it.each(crdManifests().map((crd) => [crd.spec.names.kind, crd]))('has a row for every field of %s', (kind, crd) => {
    const root = crd.spec.versions[0]?.schema.openAPIV3Schema;
    const section = reference.slice(reference.indexOf(`## ${kind}\n`));
    const paths = ['spec', 'status'].flatMap((part) => {
      const schema = root?.properties?.[part];
      return schema === undefined ? [] : leafPaths(schema, part);
    });
    expect(paths.length).toBeGreaterThan(5);
    for (const path of paths) expect(section, path).toMatch(new RegExp(`^\\| \`${path.replaceAll(/[.[\]]/g, '\\$&')}\``, 'm'));
  });

  it('marks required fields, and gives defaults, bounds and the CRD rules in words', () => {
    expect(reference).toContain('| `spec.workloadRef.name` * | string |  | Name of the ZookeeperWorkload in the same namespace. (length ≥ 1) (length ≤ 253) (a DNS subdomain name) |');
    expect(reference).toMatch(/^\| `spec\.replicas` \| integer \| `3` \| .*\(min 1\) \(max 31\) \|$/m);
    expect(reference).toMatch(/^\| `spec\.storage\.size` \| integer or string \| `"1Gi"` \| .*\(a quantity such as 500m or 2Gi\) \|$/m);
    expect(reference).toContain('- `spec.resources`: memory request may not exceed the memory limit');
    expect(reference).toContain('- `(object)`: metadata.name must be at most 52 characters');
  });
});
