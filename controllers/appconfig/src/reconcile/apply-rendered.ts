// Step: server-side apply of each rendered workload and trait with this controller's field manager, without force,
// so a field another controller owns (spec.replicas under a scale trait) is reported as a conflict, never taken.
import type { TypedReference } from '@zk-oam/apis';
import { applyObject, KubeApiError, type KubeClient } from '@zk-oam/runtime';
import type { RenderedObject } from '../render/outcome.js';
import { IDENTITY } from './resources.js';
import { readLiveObject } from './read-live.js';
import { controllerOf, liveObjectSchema } from './refs.js';

/** Why an object was not applied; each is a condition reason and an Event reason. */
export type ApplyRefusalReason = 'FieldConflict' | 'AlreadyControlled' | 'Rejected' | 'Forbidden';

export type ApplyResult =
  | { readonly kind: 'applied'; readonly verb: 'Created' | 'Updated' | 'Unchanged' }
  | { readonly kind: 'refused'; readonly reason: ApplyRefusalReason; readonly message: string };

export interface AppliedObject {
  readonly ref: TypedReference;
  readonly result: ApplyResult;
}

/** The apiserver's answers that a person must act on; anything else is retried with backoff. */
function refusalOf(error: unknown, ref: TypedReference): ApplyResult | undefined {
  if (!(error instanceof KubeApiError)) return undefined;
  if (error.code === 409) return { kind: 'refused', reason: 'FieldConflict', message: `${ref.kind} ${ref.name}: ${error.message}` };
  // Server-side apply refuses a field the kind's schema does not declare with a 500, where an update would prune it.
  const undeclared = error.code === 500 && error.message.includes('failed to create typed patch object');
  if (error.code === 422 || error.code === 400 || undeclared) return { kind: 'refused', reason: 'Rejected', message: `${ref.kind} ${ref.name}: ${error.message}` };
  if (error.code === 403) {
    const hint = 'grant it through a ClusterRole labelled oam.zkoam.dev/aggregate-to-appconfig=true';
    return { kind: 'refused', reason: 'Forbidden', message: `${ref.kind} ${ref.name}: the appconfig controller may not write it (${hint}): ${error.message}` };
  }
  return undefined;
}

async function applyUnchecked(client: KubeClient, rendered: RenderedObject, ownerUid: string): Promise<ApplyResult> {
  const key = { namespace: rendered.object.metadata.namespace ?? '', name: rendered.object.metadata.name };
  const live = await readLiveObject(client, rendered.resource, key);
  const controller = live === undefined ? undefined : controllerOf(live);
  if (controller !== undefined && controller.uid !== ownerUid) {
    return { kind: 'refused', reason: 'AlreadyControlled', message: `${rendered.ref.kind} ${rendered.ref.name} exists and is controlled by ${controller.kind} ${controller.name}` };
  }
  const stored = await applyObject(client, rendered.resource, rendered.object, { fieldManager: IDENTITY.fieldManager, force: false });
  if (live === undefined) return { kind: 'applied', verb: 'Created' };
  const after = liveObjectSchema.parse(stored).metadata.resourceVersion;
  return { kind: 'applied', verb: after === live.metadata.resourceVersion ? 'Unchanged' : 'Updated' };
}

async function applyOne(client: KubeClient, rendered: RenderedObject, ownerUid: string): Promise<ApplyResult> {
  try {
    return await applyUnchecked(client, rendered, ownerUid);
  } catch (error) {
    const refusal = refusalOf(error, rendered.ref);
    if (refusal === undefined) throw error;
    return refusal;
  }
}

/** Applies workloads before their traits (the order rendered), one at a time. */
export async function applyRendered(client: KubeClient, objects: readonly RenderedObject[], ownerUid: string): Promise<AppliedObject[]> {
  const applied: AppliedObject[] = [];
  for (const rendered of objects) applied.push({ ref: rendered.ref, result: await applyOne(client, rendered, ownerUid) });
  return applied;
}
