// A tenant's ACL (pure): who may use its path, and what the parents the operator creates for it grant.
import type { AclEntry } from '../wire/packets.js';

/** ZooDefs.Perms: the bits of an ACL entry. */
export const PERMS = { read: 1, write: 2, create: 4, delete: 8, admin: 16, all: 31 } as const;

/**
 * The path's ACL: all permissions to the tenant's principal alone (`sasl:<user>`), or to anyone when the ensemble does
 * not authenticate clients. The operator's superuser needs no entry: ZooKeeper lets it past every ACL.
 */
export function tenantAcl(principal: { scheme: string; id: string } | undefined): AclEntry[] {
  return [principal === undefined ? { perms: PERMS.all, scheme: 'world', id: 'anyone' } : { perms: PERMS.all, ...principal }];
}

/** Parents the operator creates for a tenant's path: readable, so that a client may look its way down, but nobody else creates beside it. */
export const PARENT_ACL: readonly AclEntry[] = [{ perms: PERMS.read, scheme: 'world', id: 'anyone' }];

/** Whether two ACLs grant the same, in any order. */
export function sameAcl(a: readonly AclEntry[], b: readonly AclEntry[]): boolean {
  const key = (entry: AclEntry): string => `${entry.scheme}:${entry.id}:${String(entry.perms)}`;
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.length === right.length && left.every((entry, index) => entry === right[index]);
}

/** `/a/b/c` -> `/a`, `/a/b`: the parents to make sure of, outermost first. */
export function parentsOf(path: string): string[] {
  const segments = path.split('/').slice(1, -1);
  return segments.map((_segment, index) => `/${segments.slice(0, index + 1).join('/')}`);
}
