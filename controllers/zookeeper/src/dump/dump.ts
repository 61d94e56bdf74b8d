// A logical dump of an ensemble's persistent znodes, consistent at one zxid: the tree is read, the member is synced with
// the leader (its zxid then is the dump's point), and every znode read is checked again; consistency.ts says when what
// was read is the tree as of the point, and which znodes created since the read belong in it (those read then). When
// that cannot be said of some znode, the whole walk is tried again, up to `attempts` times; a tree whose znodes keep
// changing fails with the paths that did. Reads only: the superuser's session reads every znode whatever its ACL, and
// the leader is asked for nothing but the sync.
import { ZOO_CODES } from '../admin/codes.js';
import { bodies, OP_CODES, readStat, readStrings } from '../wire/packets.js';
import type { ZnodeCalls } from '../tenant/tenant-admin.js';
import { judge, judgeNew, type Sighting } from './consistency.js';
import { childPath, eachLimited, READS_IN_FLIGHT, readNode, readTree, type DumpSink, type TreeReading } from './read-tree.js';

export interface TreeDump {
  /** The zxid the dump is the tree as of. */
  readonly zxid: bigint;
  /** The persistent znodes (ZooKeeper's own left out) the sink was given in the walk that held together. */
  readonly znodes: number;
  /** The walks it took: 1 when the first held together. */
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

/** Each path's Stat and children now, or undefined when it is gone. */
async function checkAgain(session: ZnodeCalls, paths: readonly string[]): Promise<Map<string, Sighting | undefined>> {
  const checked = new Map<string, Sighting | undefined>();
  await eachLimited(paths, READS_IN_FLIGHT, async (path) => {
    const reply = await session.call('getChildren2', OP_CODES.getChildren2, bodies.unwatched(path), [ZOO_CODES.ZNONODE]);
    if (reply.header.err === ZOO_CODES.ZNONODE) checked.set(path, undefined);
    else checked.set(path, { children: readStrings(reply.body), stat: readStat(reply.body) });
  });
  return checked;
}

interface Settled {
  /** What could not be said to be as of the point. */
  readonly changed: string[];
  /** Znodes created since their parent was read, that were there at the point (given to the sink). */
  created: number;
}

/** Reads the znodes created under read ones since, a level at a time: those there at `point` belong in the dump. */
async function readCreated(session: ZnodeCalls, sink: DumpSink, paths: readonly string[], point: bigint, settled: Settled): Promise<void> {
  for (let level = paths; level.length > 0; ) {
    const below: string[] = [];
    await eachLimited(level, READS_IN_FLIGHT, async (path) => {
      const node = await readNode(session, path);
      if (node.kind === 'ephemeral') return;
      const verdict = node.kind === 'gone' ? 'changed' : judgeNew(node.stat, point);
      if (verdict === 'changed' || (node.kind === 'read' && !node.consistent)) settled.changed.push(path);
      if (verdict !== 'asRead' || node.kind !== 'read') return;
      below.push(...node.children.map((name) => childPath(path, name)));
      settled.created++;
      await sink.add(node.znode);
    });
    level = below;
  }
}

/** Checks every znode read against `point`, and reads those created since that belong in the dump. */
async function settle(session: ZnodeCalls, sink: DumpSink, reading: TreeReading, point: bigint): Promise<Settled> {
  const checked = await checkAgain(session, [...reading.sightings.keys()]);
  const settled: Settled = { changed: [...reading.changedDuringRead], created: 0 };
  const added: string[] = [];
  for (const [path, read] of reading.sightings) {
    const verdict = judge(read, checked.get(path), point);
    if (verdict.kind === 'changed') settled.changed.push(path);
    if (verdict.kind === 'childrenAdded') added.push(...verdict.added.map((name) => childPath(path, name)));
  }
  await readCreated(session, sink, added, point, settled);
  return settled;
}

/** Dumps the tree into `sink`, parents before children (a level of the tree at a time, then the znodes created by the point). */
export async function dumpTree(session: ZnodeCalls, sink: DumpSink, attempts = 3): Promise<TreeDump> {
  let changed: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await sink.begin(attempt);
    const reading = await readTree(session, sink);
    const zxid = await syncedZxid(session);
    const settled = await settle(session, sink, reading, zxid);
    changed = [...new Set(settled.changed)].sort();
    if (changed.length === 0) return { zxid, znodes: reading.count + settled.created, attempts: attempt };
  }
  throw new ConcurrentChangesError(attempts, changed);
}
