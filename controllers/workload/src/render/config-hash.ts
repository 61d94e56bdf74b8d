// The hash of what a running member read at start, put on the pod template so that a change rolls the pods.
import { createHash } from 'node:crypto';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { CONFIG_FILES } from './layout.js';

export const CONFIG_HASH_ANNOTATION = 'zookeeper.zkoam.dev/config-hash';

/**
 * sha256 over zoo.cfg and the scripts, in a fixed order. The initial dynamic configuration is left out: it is read only
 * at the first bootstrap, so a change to it must not restart running members.
 */
export function configHash(configMap: V1ConfigMap): string {
  const hash = createHash('sha256');
  for (const file of [CONFIG_FILES.zooCfg, CONFIG_FILES.start, CONFIG_FILES.ready, CONFIG_FILES.alive]) {
    hash.update(`${file}\0${configMap.data?.[file] ?? ''}\0`);
  }
  return hash.digest('hex');
}
