// Whether a tree read one znode after another holds together at one zxid (pure). Each znode was read at some moment of
// the walk, and checked again after the walk's end, `point`, the zxid the dump stands for. ZooKeeper counts every
// change of a znode's data (version), ACL (aversion) and children (cversion: a child created or deleted) and stamps
// the last data change (mzxid) and each creation (czxid) with a zxid that only grows. So, between the read and the
// check:
// - nothing counted moved: at `point` the znode was what the walk read;
// - its data changed once, and that change came after `point` (mzxid > point): at `point` its data was what was read;
// - children were only created (none removed, the count of changes equal to the count of new names): the children at
//   `point` are those read and those new ones whose czxid is not after `point`; such a new znode is as the check reads
//   it if nothing changed it since its creation (judgeNew);
// - anything else (a second data change, one before `point`, an ACL change, a child removed, the znode deleted): what
//   it was at `point` is not known, and the dump is tried again.
// A client that keeps creating znodes, or writes each of its znodes at most once during a walk, therefore does not
// stop a dump; one that rewrites the same znodes faster than a walk takes does.
import type { Stat } from '../wire/packets.js';

/** A znode as the walk read it, or as the check found it: its Stat and its children's names. */
export interface Sighting {
  readonly stat: Stat;
  readonly children: readonly string[];
}

export type Judgement =
  | { readonly kind: 'asRead' }
  /** As read, and these children were created since; each is judged by judgeNew. */
  | { readonly kind: 'childrenAdded'; readonly added: readonly string[] }
  | { readonly kind: 'changed'; readonly what: 'deleted' | 'data' | 'acl' | 'children' };

/** What the walk read of a znode, judged by its check (undefined: the check found no znode). */
export function judge(read: Sighting, checked: Sighting | undefined, point: bigint): Judgement {
  if (checked === undefined) return { kind: 'changed', what: 'deleted' };
  const [before, after] = [read.stat, checked.stat];
  const dataAsRead = after.version === before.version || (after.version === before.version + 1 && after.mzxid > point);
  if (!dataAsRead) return { kind: 'changed', what: 'data' };
  if (after.aversion !== before.aversion) return { kind: 'changed', what: 'acl' };
  if (after.cversion === before.cversion) return { kind: 'asRead' };
  const known = new Set(read.children);
  const still = new Set(checked.children);
  const added = checked.children.filter((name) => !known.has(name));
  const onlyCreated = read.children.every((name) => still.has(name)) && after.cversion - before.cversion === added.length;
  return onlyCreated ? { kind: 'childrenAdded', added } : { kind: 'changed', what: 'children' };
}

/**
 * A znode the walk did not read, created under a znode it did: created after `point` (not in the dump), as read now
 * (created by `point` and never changed since: no data or ACL change, no child removed, so its children at `point` are
 * those of its children created by `point`), or changed.
 */
export function judgeNew(stat: Stat, point: bigint): 'after' | 'asRead' | 'changed' {
  if (stat.czxid > point) return 'after';
  const untouched = stat.version === 0 && stat.aversion === 0 && stat.cversion === stat.numChildren;
  return untouched ? 'asRead' : 'changed';
}
