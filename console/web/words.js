// What the page says in plain words: phases as badges, conditions as sentences, timeline entries as one line each.
import { h } from './dom.js';

export function phaseBadge(phase) {
  return h('span', { class: `badge phase-${String(phase).toLowerCase()}` }, phase);
}

/** A condition as a sentence: its type, whether it holds, and what its controller says about it. */
export function conditionSentence(condition) {
  const holds = condition.status === 'True' ? 'yes' : condition.status === 'False' ? 'no' : 'not known yet';
  return `${condition.type}: ${holds}${condition.reason ? ` (${condition.reason})` : ''}${condition.message ? ` – ${condition.message}` : ''}`;
}

/** A NATS fact (the event envelope the controllers publish) as one line of the timeline. */
export function factLine(fact) {
  const data = fact.data ?? {};
  const details = Object.entries(data)
    .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
  return { time: fact.time, kind: 'fact', title: fact.type, text: details, source: fact.source };
}

/** A Kubernetes Event as one line of the timeline. */
export function eventLine(event) {
  const about = event.regarding === undefined ? event.reporter : `${event.regarding.kind.replace('Zookeeper', '')} ${event.regarding.name}`;
  return { time: event.time, kind: event.type === 'Warning' ? 'warning' : 'event', title: event.reason, text: event.message, source: about };
}

/** A member's zxid lag in words: transactions behind the leader, an older epoch, or not known. */
export function lagText(lag) {
  if (lag === undefined) return 'not known yet';
  if (lag.kind === 'behind') return String(lag.transactions);
  if (lag.kind === 'olderEpoch') return `older epoch (${lag.epoch}, leader ${lag.leaderEpoch})`;
  return 'unknown';
}

/** Where the lags come from: the workload controller's look and its time, or why there are none. */
export function lagSource(zxid) {
  if (zxid === undefined) return 'zxid lag: asking the workload controller…';
  return zxid.available ? `zxid lag as the workload controller saw it at ${new Date(zxid.observedAt).toLocaleTimeString()}` : `zxid lag unavailable: ${zxid.reason}`;
}
