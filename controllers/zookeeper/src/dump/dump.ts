// A logical dump of an ensemble's persistent znodes, consistent at one zxid: the tree is read, the member is synced with
// the leader (its zxid then is the dump's point), and every znode read is checked again (consistency.ts says why that
// makes the dump the tree as of the point). When something changed, the whole walk is tried again, up to `attempts`
// times; a tree whose znodes keep changing fails with the paths that did. Reads only: the superuser's session reads
// every znode whatever its ACL, and the leader is not asked for anything but the sync.
import { ZOO_CODES } from '../admin/codes.js';
import { bodies, OP_CODES, readStat } from '../wire/packets.js';
import type { ZnodeCalls } from '../tenant/tenant-admin.js';
import { changedPaths, type Versions } from './consistency.js';
import { eachLimited, READS_IN_FLIGHT, readTree, type DumpedZnode } from './read-tree.js';

export interface TreeDump {
  /** The zxid the dump is the tree as of. */
  readonly zxid: bigint;
  /** Every persistent znode but ZooKeeper's own, parents before children (in path order). */
  readonly znodes: readonly DumpedZnode[];
  /** The walks it took: 1 when nothing changed during the first. */
  readonly attempts: number;
}

export class ConcurrentChangesError extends Error {
  override readonly name = 'ConcurrentChangesError';
  constructor(
    readonly attempts: number,
    readonly paths: readonly string[],
  ) {
    const shown = paths.slice(0, 5).join(', ');
    super(`znodes changed while the tree was read, in each of ${String(attempts)} attempts (${String(paths.length)} in the last: ${shown}${paths.length > 5 ? ', ...' : ''})`);
  }
}

/** The member's zxid once it has caught up with the leader. */
async function syncedZxid(session: ZnodeCalls): Promise<bigint> {
  const reply = await session.call('sync', OP_CODES.sync, bodies.path('/'));
  return reply.header.zxid;
}

async function checkAgain(session: ZnodeCalls, paths: readonly string[]): Promise<Map<string, Versions | undefined>> {
  const checked = new Map<string, Versions | undefined>();
  await eachLimited(paths, READS_IN_FLIGHT, async (path) => {
    const reply = await session.call('exists', OP_CODES.exists, bodies.unwatched(path), [ZOO_CODES.ZNONODE]);
    checked.set(path, reply.header.err === ZOO_CODES.ZNONODE ? undefined : readStat(reply.body));
  });
  return checked;
}

function byPath(a: DumpedZnode, b: DumpedZnode): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

export async function dumpTree(session: ZnodeCalls, attempts = 3): Promise<TreeDump> {
  let changed: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const reading = await readTree(session);
    const zxid = await syncedZxid(session);
    const checked = await checkAgain(session, [...reading.versions.keys()]);
    changed = [...new Set([...reading.changedDuringRead, ...changedPaths(reading.versions, checked)])].sort();
    if (changed.length === 0) return { zxid, znodes: reading.znodes.sort(byPath), attempts: attempt };
  }
  throw new ConcurrentChangesError(attempts, changed);
}
