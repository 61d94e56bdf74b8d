// A controller writes its kind's status by server-side apply on /status, as a whole, and only when it says something new.
import type { z } from 'zod';
import { applyStatus } from '../apply/server-side-apply.js';
import type { KubeClient } from '../kube/client.js';
import type { ObjectKey } from '../kube/object.js';
import type { ResourceType } from '../kube/resource.js';
import { sameStatus } from './stored-status.js';
import type { WrittenStatuses } from './written-statuses.js';

/** Where a controller writes a kind's status, and the schema that status is read back through. */
export interface StatusTarget<S extends z.ZodType<Readonly<Record<string, unknown>>>> {
  readonly resource: ResourceType;
  readonly schema: S;
  /** The controller's own: the status fields it no longer lists are removed. */
  readonly fieldManager: string;
}

/** Applies `next` unless it is what is stored, and keeps the object as stored in `written` when given; returns whether it wrote. */
export async function writeStatusIfChanged<S extends z.ZodType<Readonly<Record<string, unknown>>>>(
  client: Pick<KubeClient, 'request'>,
  target: StatusTarget<S>,
  key: ObjectKey,
  stored: z.output<S> | undefined,
  next: z.output<S>,
  written?: WrittenStatuses<S>,
): Promise<boolean> {
  if (sameStatus(target.schema, stored, next)) return false;
  const applied = await applyStatus(client, target.resource, key, next, { fieldManager: target.fieldManager });
  written?.remember(applied);
  return true;
}
