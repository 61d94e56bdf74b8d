// The step a reconcile ends with: its object's next status, derived from the stored one, written only when it says
// something new. A failed write is the ReportStatus step failing with the reason StatusWriteFailed, as every
// controller's Warning names it; the controller retries the reconcile with backoff. Given the statuses it wrote, it
// derives from the newest it knows, the cache's or its own last write (written-statuses.ts).
import type { z } from 'zod';
import { runStep } from '../controller/step-error.js';
import type { KubeClient } from '../kube/client.js';
import { formatKey, keyOf, type KubeObject } from '../kube/object.js';
import type { ConditionContext } from './condition.js';
import { storedStatus } from './stored-status.js';
import { writeStatusIfChanged, type StatusTarget } from './write-status.js';
import type { WrittenStatuses } from './written-statuses.js';

export interface StatusReport<T> {
  /** What the object carried, read through the status schema; undefined when it carried none that validates. */
  readonly previous: T | undefined;
  readonly next: T;
  /** Whether `next` differed from `previous` and was applied. */
  readonly written: boolean;
}

export async function reportStatus<S extends z.ZodType<Readonly<Record<string, unknown>>>>(
  client: Pick<KubeClient, 'request'>,
  target: StatusTarget<S>,
  object: KubeObject,
  now: Date,
  nextOf: (previous: z.output<S> | undefined, context: ConditionContext) => z.output<S>,
  options: { readonly written?: WrittenStatuses<S> } = {},
): Promise<StatusReport<z.output<S>>> {
  const key = keyOf(object);
  const previous = options.written === undefined ? storedStatus(target.schema, object) : options.written.freshest(object);
  const next = nextOf(previous, { generation: object.metadata.generation, now });
  const step = { step: 'ReportStatus', category: 'StatusWriteFailed', object: `${target.resource.kind} ${formatKey(key)}` };
  const written = await runStep(step, () => writeStatusIfChanged(client, target, key, previous, next, options.written));
  return { previous, next, written };
}
