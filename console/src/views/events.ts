// Recent Kubernetes Events about an ensemble and its traits, newest first, from core/v1 Event objects.
import { z } from 'zod';

export interface EventView {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  /** When it last happened: the series' last time, the event time, or the last timestamp (whichever the writer set). */
  readonly time: string | undefined;
  readonly count: number;
  /** The controller that reported it. */
  readonly reporter: string | undefined;
  /** The object it is about: the workload, or one of its traits (the rolling trait reports each pod it restarts). */
  readonly regarding: { readonly kind: string; readonly name: string } | undefined;
}

export const coreEventSchema = z.looseObject({
  type: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  count: z.int().optional(),
  eventTime: z.string().nullish(),
  lastTimestamp: z.string().nullish(),
  firstTimestamp: z.string().nullish(),
  series: z.looseObject({ count: z.int().optional(), lastObservedTime: z.string().optional() }).nullish(),
  reportingComponent: z.string().optional(),
  source: z.looseObject({ component: z.string().optional() }).optional(),
  involvedObject: z.looseObject({ kind: z.string().optional(), name: z.string().optional() }).optional(),
});
export type CoreEvent = z.infer<typeof coreEventSchema>;

/** How many Events the info of an ensemble carries. */
export const RECENT_EVENTS = 20;

function regardingOf(event: CoreEvent): EventView['regarding'] {
  const about = event.involvedObject;
  return about?.kind === undefined ? undefined : { kind: about.kind, name: about.name ?? '' };
}

export function eventView(event: CoreEvent): EventView {
  return {
    type: event.type ?? 'Normal',
    reason: event.reason ?? '',
    message: event.message ?? '',
    time: event.series?.lastObservedTime ?? event.lastTimestamp ?? event.eventTime ?? event.firstTimestamp ?? undefined,
    count: event.series?.count ?? event.count ?? 1,
    reporter: event.reportingComponent || event.source?.component || undefined,
    regarding: regardingOf(event),
  };
}

/** The newest `RECENT_EVENTS` Events, newest first; Events without a time come last. */
export function recentEvents(events: readonly CoreEvent[]): EventView[] {
  return events
    .map(eventView)
    .sort((a, b) => (b.time ?? '').localeCompare(a.time ?? ''))
    .slice(0, RECENT_EVENTS);
}
