// The applied hash each child of a workload's last render had, under a digest of everything that render read. In a
// burst a workload is reconciled once per event of each of its children and of its own status writes, each time with
// the same render input: rendering and hashing its children anew every time was about a tenth of the workload
// controller's CPU (a profile of 100 ensembles applied at once). Only hashes are kept, not the render, so that 1,000
// ensembles cost a few strings each; a workload's entry goes when its reconcile finds it gone, and all of them with
// the controller that made them (start.ts makes one per controller start).
import { createHash } from 'node:crypto';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import type { RenderedResource } from '../render/render.js';

/**
 * What a render of `workload` reads, as a digest: its identity, labels, annotations and spec (not its status: what the
 * render takes of it is among the decisions), and `decisions`, the JSON of the render's other inputs.
 */
export function renderInputDigest(workload: ZookeeperWorkload, decisions: string): string {
  const { uid, name, namespace, labels, annotations } = workload.metadata;
  return createHash('sha256')
    .update(JSON.stringify([uid, name, namespace, labels, annotations, workload.spec, decisions]))
    .digest('hex');
}

export class RenderedHashes {
  private readonly kept = new Map<string, { readonly input: string; readonly hashes: Map<RenderedResource, string> }>();

  /** The hashes found so far for the render of workload `key` (namespace/name) with input `input`; another input starts afresh. */
  of(key: string, input: string): Map<RenderedResource, string> {
    const entry = this.kept.get(key);
    if (entry?.input === input) return entry.hashes;
    const hashes = new Map<RenderedResource, string>();
    this.kept.set(key, { input, hashes });
    return hashes;
  }

  forget(key: string): void {
    this.kept.delete(key);
  }
}
