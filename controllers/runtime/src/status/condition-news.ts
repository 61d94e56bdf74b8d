// A condition that says something new is told once: a Warning Event when it first goes False for a reason a person
// must act on, not at every reconcile that finds it still so.
import type { Condition } from '@zk-oam/apis';
import type { EventDetails } from '../recorder/event-recorder.js';

type Said = Pick<Condition, 'type' | 'status' | 'reason' | 'message'>;

/** Condition `type` of `next` when it is news against `previous`: absent there, or with another status or reason. */
export function conditionNews<C extends Said>(previous: readonly Said[] | undefined, next: readonly C[] | undefined, type: string): C | undefined {
  const is = next?.find((condition) => condition.type === type);
  const was = previous?.find((condition) => condition.type === type);
  return is !== undefined && (was?.status !== is.status || was.reason !== is.reason) ? is : undefined;
}

/**
 * A Warning Event when condition `type` newly goes False for one of the reasons `actions` lists, with the action it
 * names for that reason (what could not be done); undefined otherwise.
 */
export function warningOnNews<R extends string>(
  previous: readonly Said[] | undefined,
  next: readonly Said[] | undefined,
  type: string,
  actions: Readonly<Record<R, string>>,
): EventDetails<R> | undefined {
  const news = conditionNews(previous, next, type);
  if (news?.status !== 'False' || !isListed(actions, news.reason)) return undefined;
  return { type: 'Warning', reason: news.reason, action: actions[news.reason], note: news.message };
}

function isListed<R extends string>(actions: Readonly<Record<R, string>>, reason: string): reason is R {
  return Object.hasOwn(actions, reason);
}
