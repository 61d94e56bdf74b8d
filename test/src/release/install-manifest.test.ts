import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { crdsFirst, crdsOnly, installOverlay } from './install-manifest.js';

const digest = `sha256:${'a'.repeat(64)}`;
const kinds = (manifest: string): unknown[] => parseAllDocuments(manifest).map((document) => (document.toJS() as { kind: string }).kind);

describe('the install manifest', () => {
  it('points each shipped image at the release registry, pinned by digest, from an overlay beside deploy/', () => {
    expect(installOverlay({ deployDir: '/repo/deploy', overlayDir: '/tmp/release/overlay', registry: 'registry.example.com/zk-oam', images: [{ name: 'workload', digest }] })).toStrictEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: ['../../../repo/deploy'],
      images: [{ name: 'ghcr.io/zk-oam/workload', newName: 'registry.example.com/zk-oam/workload', digest }],
    });
  });

  it('puts the CRDs first and keeps the order of the rest', () => {
    const manifest = ['kind: Namespace', 'kind: CustomResourceDefinition\nmetadata: { name: a }', 'kind: Deployment', 'kind: CustomResourceDefinition\nmetadata: { name: b }'].join('\n---\n');
    expect(kinds(crdsFirst(manifest))).toStrictEqual(['CustomResourceDefinition', 'CustomResourceDefinition', 'Namespace', 'Deployment']);
    expect(parseAllDocuments(crdsFirst(manifest)).map((document) => (document.toJS() as { metadata?: { name: string } }).metadata?.name)).toStrictEqual(['a', 'b', undefined, undefined]);
  });

  it('bundles the CRDs of several manifests alone', () => {
    expect(kinds(crdsOnly('kind: ClusterRole\n---\nkind: CustomResourceDefinition', 'kind: CustomResourceDefinition'))).toStrictEqual(['CustomResourceDefinition', 'CustomResourceDefinition']);
  });
});
