// Whether a tree read one znode after another holds together at one zxid (pure). Each znode was read at some moment
// of the walk and checked again after the walk's end, `point`: when neither its data (mzxid), its children (pzxid)
// nor its ACL (aversion) changed between the two, it was, at `point`, what the walk read. When that holds for every
// znode read, the whole dump is the tree as of `point` (ZooKeeper stamps each change with a zxid that only grows, so
// an unchanged stamp means no change in between). A znode created under a read parent shows as the parent's pzxid
// moving; one deleted, as its check finding nothing.
import type { Stat } from '../wire/packets.js';

/** What must stay put between the read and the check. */
export type Versions = Pick<Stat, 'mzxid' | 'pzxid' | 'aversion'>;

/** Whether two reads of a znode saw the same data, children and ACL. */
export function sameVersions(first: Versions, second: Versions): boolean {
  return first.mzxid === second.mzxid && first.pzxid === second.pzxid && first.aversion === second.aversion;
}

/** The paths whose check differs from their read, or that the check no longer found (`undefined`), in path order. */
export function changedPaths(read: ReadonlyMap<string, Versions>, checked: ReadonlyMap<string, Versions | undefined>): string[] {
  const changed: string[] = [];
  for (const [path, versions] of read) {
    const again = checked.get(path);
    if (again === undefined || !sameVersions(versions, again)) changed.push(path);
  }
  return changed.sort();
}
