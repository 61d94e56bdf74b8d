// Which path a znode has, and whether an earlier znode of the same workload claims it (pure). A path is one tenant's
// with everything under it, so a claim on /a overlaps one on /a/b: the later of the two is refused, whichever it is.
// A claim already served (its status records the path) comes before any that is not: creation times have whole
// seconds, so two znodes made in the same second would otherwise be ordered by uid, and a newcomer could take a path
// from the tenant using it.
import { defaultZnodePath } from '@zk-oam/apis';

/** A znode's claim on a path of its workload. */
export interface PathClaim {
  readonly name: string;
  readonly uid: string;
  readonly path: string;
  /** metadata.creationTimestamp; with the uid, orders claims the same way in every process. */
  readonly createdAt: string;
  /** Whether the znode's status records the path as its own: the controller served it. */
  readonly served: boolean;
}

/** spec.path, or the path the uid gives; both are fixed for the object's life (spec.path is immutable). */
export function znodePath(spec: { readonly path?: string | undefined }, uid: string): string {
  return spec.path ?? defaultZnodePath(uid);
}

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

function earlier(a: PathClaim, b: PathClaim): boolean {
  if (a.served !== b.served) return a.served;
  return a.createdAt === b.createdAt ? a.uid < b.uid : a.createdAt < b.createdAt;
}

/** The earliest claim among `others` that overlaps `own` and came before it; undefined when the path is `own`'s. */
export function conflictingClaim(own: PathClaim, others: readonly PathClaim[]): PathClaim | undefined {
  return others
    .filter((other) => other.uid !== own.uid && overlaps(own.path, other.path) && earlier(other, own))
    .sort((a, b) => (earlier(a, b) ? -1 : 1))[0];
}
