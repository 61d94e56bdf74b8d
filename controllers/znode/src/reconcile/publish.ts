// Step: publish. The discovery ConfigMap and Secret, applied only when their data differ from what is stored; returns
// whether it wrote.
import { coreResources, applyObject, type ObjectKey } from '@zk-oam/runtime';
import { buildDiscoveryConfigMap, buildDiscoverySecret, type DiscoveryInput, type DiscoveryObject } from '../render/index.js';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { readData } from './read-data.js';
import { IDENTITY } from './resources.js';

type Deps = Pick<ZnodeReconcilerDependencies, 'client'>;

export async function publish(deps: Deps, key: ObjectKey, input: DiscoveryInput): Promise<boolean> {
  return inStep('Publish', 'DiscoveryWriteFailed', key, async () => {
    const wroteConfigMap = await applyIfChanged(deps, 'configMap', buildDiscoveryConfigMap(input));
    const wroteSecret = await applyIfChanged(deps, 'secret', buildDiscoverySecret(input));
    return wroteConfigMap || wroteSecret;
  });
}

async function applyIfChanged(deps: Deps, kind: 'configMap' | 'secret', object: DiscoveryObject): Promise<boolean> {
  const stored = await readData(deps.client, kind, object.metadata);
  if (stored !== undefined && sameData(stored.data, object.data)) return false;
  await applyObject(deps.client, coreResources[kind], object, { fieldManager: IDENTITY.fieldManager });
  return true;
}

function sameData(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
