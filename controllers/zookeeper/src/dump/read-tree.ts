// One walk of the tree through a session: every persistent znode's data, ACL, Stat and children's names, parents
// before children, many requests in flight at once (the session pipelines them; replies come back in order). Each
// znode goes to the dump's sink as it is read, so the walk holds no data: only each znode's Stat and children's names,
// which the check after the walk needs. Ephemeral
// znodes belong to their owner's session and are left out, as is ZooKeeper's own subtree (/zookeeper: its config and
// quotas are the ensemble's, not the data's).
import { ZOO_CODES } from '../admin/codes.js';
import { bodies, OP_CODES, readAcl, readStat, readStrings, type AclEntry, type Stat } from '../wire/packets.js';
import type { ZnodeCalls } from '../tenant/tenant-admin.js';
import type { Sighting } from './consistency.js';

/** A persistent znode as a dump keeps it. */
export interface DumpedZnode {
  readonly path: string;
  readonly data: Buffer;
  readonly acl: readonly AclEntry[];
}

/**
 * Where a dump's znodes go as they are read, parents before children. A walk that does not hold together is tried
 * again from the root: `begin` says that what the sink was given before is not the dump.
 */
export interface DumpSink {
  begin(attempt: number): Promise<void>;
  /** Resolves once the sink can take more: a sink that writes slower than the walk reads holds the walk back. */
  add(znode: DumpedZnode): Promise<void>;
}

export interface TreeReading {
  /** Znodes given to the sink. */
  count: number;
  /** The Stat and children each znode was read with. */
  readonly sightings: Map<string, Sighting>;
  /** Znodes whose three reads (data, ACL, children) disagreed: changed during the walk itself. */
  readonly changedDuringRead: string[];
}

const RESERVED_ROOT = '/zookeeper';
/** Requests in flight at once: enough to keep a member busy without queueing much on it. */
export const READS_IN_FLIGHT = 32;

export function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

/** The three reads of a znode saw the same data, children and ACL. */
function sameVersions(a: Stat, b: Stat): boolean {
  return a.mzxid === b.mzxid && a.pzxid === b.pzxid && a.aversion === b.aversion;
}

export type NodeReading =
  | { readonly kind: 'gone' }
  | { readonly kind: 'ephemeral' }
  | { readonly kind: 'read'; readonly znode: DumpedZnode; readonly stat: Stat; readonly children: string[]; readonly consistent: boolean };

/** getData, getACL and getChildren2 of one znode, sent together; "no node" (deleted meanwhile) is an outcome. */
export async function readNode(session: ZnodeCalls, path: string): Promise<NodeReading> {
  const noNode = [ZOO_CODES.ZNONODE];
  const [data, acl, children] = await Promise.all([
    session.call('getData', OP_CODES.getData, bodies.getData(path), noNode),
    session.call('getACL', OP_CODES.getACL, bodies.path(path), noNode),
    session.call('getChildren2', OP_CODES.getChildren2, bodies.unwatched(path), noNode),
  ]);
  if ([data, acl, children].some((reply) => reply.header.err === ZOO_CODES.ZNONODE)) return { kind: 'gone' };
  const bytes = data.body.buffer() ?? Buffer.alloc(0);
  const dataStat = readStat(data.body);
  if (dataStat.ephemeralOwner !== 0n) return { kind: 'ephemeral' };
  const entries = readAcl(acl.body);
  const aclStat = readStat(acl.body);
  const names = readStrings(children.body);
  const stat = readStat(children.body);
  const consistent = sameVersions(dataStat, stat) && sameVersions(aclStat, stat);
  return { kind: 'read', znode: { path, data: bytes, acl: entries }, stat, children: names, consistent };
}

/** Calls `each` on every item, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) await each(items[index] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Walks the tree from the root, a level at a time, with up to `inFlight` znodes read at once. */
export async function readTree(session: ZnodeCalls, sink: DumpSink, inFlight = READS_IN_FLIGHT): Promise<TreeReading> {
  const reading: TreeReading = { count: 0, sightings: new Map(), changedDuringRead: [] };
  for (let level: string[] = ['/']; level.length > 0; ) {
    const below: string[] = [];
    await eachLimited(level, inFlight, async (path) => {
      const node = await readNode(session, path);
      if (node.kind !== 'read') return;
      reading.sightings.set(path, { stat: node.stat, children: node.children });
      if (!node.consistent) reading.changedDuringRead.push(path);
      for (const name of node.children) {
        const child = childPath(path, name);
        if (child !== RESERVED_ROOT) below.push(child);
      }
      reading.count++;
      await sink.add(node.znode);
    });
    level = below;
  }
  return reading;
}
