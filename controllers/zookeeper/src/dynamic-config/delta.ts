// The incremental reconfig that turns one membership into another: who joins (or changes) and who leaves.
import { formatServerLine, sameServerEntry, type ServerEntry } from './server-line.js';
import { sortServers } from './config.js';

export interface ReconfigDelta {
  /** New members and members whose line changes (ZooKeeper treats a known id in `joining` as an update). */
  joining: ServerEntry[];
  /** Ids that are no longer members. */
  leaving: number[];
}

export function reconfigDelta(from: readonly ServerEntry[], to: readonly ServerEntry[]): ReconfigDelta {
  const joining = sortServers(
    to.filter((target) => {
      const current = from.find((server) => server.id === target.id);
      return current === undefined || !sameServerEntry(current, target);
    }),
  );
  const leaving = from
    .filter((server) => !to.some((target) => target.id === server.id))
    .map((server) => server.id)
    .sort((a, b) => a - b);
  return { joining, leaving };
}

export function isEmptyDelta(delta: ReconfigDelta): boolean {
  return delta.joining.length === 0 && delta.leaving.length === 0;
}

/** The `joining` argument of ZooKeeper's reconfig: comma-separated server lines, or undefined when none. */
export function formatJoining(delta: ReconfigDelta): string | undefined {
  return delta.joining.length === 0 ? undefined : delta.joining.map(formatServerLine).join(',');
}

/** The `leaving` argument of ZooKeeper's reconfig: comma-separated ids, or undefined when none. */
export function formatLeaving(delta: ReconfigDelta): string | undefined {
  return delta.leaving.length === 0 ? undefined : delta.leaving.join(',');
}
