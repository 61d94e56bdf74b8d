// The superuser's verbs on a tenant's path: make sure it exists with the tenant's ACL (born with it, never open for a
// moment), say whether it exists, and remove it with everything under it. Each is idempotent: "already exists" and
// "no node" are outcomes, not errors. Over the wire session on either client port (see wire-session.ts for why not the
// npm binding).
import { ZOO_CODES } from '../admin/codes.js';
import { bodies, OP_CODES, readAcl, readStrings, type AclEntry } from '../wire/packets.js';
import { openSuperuserSession } from '../wire/superuser-session.js';
import type { WireEndpoint, WireSession, WireSessionOptions } from '../wire/wire-session.js';
import { PARENT_ACL, parentsOf, sameAcl } from './acl.js';

export interface TenantAdmin {
  /** Creates the missing parents, then the path with `acl`; an existing path gets `acl` if it has another. */
  ensurePath(path: string, acl: readonly AclEntry[]): Promise<{ readonly created: boolean; readonly aclChanged: boolean }>;
  pathExists(path: string): Promise<boolean>;
  /** Deletes the path and everything under it, deepest first; how many znodes went (0: there was none). */
  deleteTree(path: string): Promise<number>;
  close(): void;
}

/** What TenantAdmin needs of a session: one request, its reply's body. */
export interface ZnodeCalls {
  call: WireSession['call'];
}

export class WireTenantAdmin implements TenantAdmin {
  constructor(private readonly session: ZnodeCalls & { close(): void }) {}

  async ensurePath(path: string, acl: readonly AclEntry[]): Promise<{ created: boolean; aclChanged: boolean }> {
    for (const parent of parentsOf(path)) {
      await this.session.call('create parent', OP_CODES.create, bodies.create(parent, '', PARENT_ACL), [ZOO_CODES.ZNODEEXISTS]);
    }
    const created = await this.session.call('create', OP_CODES.create, bodies.create(path, '', acl), [ZOO_CODES.ZNODEEXISTS]);
    if (created.header.err === ZOO_CODES.ZOK) return { created: true, aclChanged: false };
    const current = readAcl((await this.session.call('getACL', OP_CODES.getACL, bodies.path(path))).body);
    if (sameAcl(current, acl)) return { created: false, aclChanged: false };
    await this.session.call('setACL', OP_CODES.setACL, bodies.setAcl(path, acl, -1));
    return { created: false, aclChanged: true };
  }

  async pathExists(path: string): Promise<boolean> {
    const reply = await this.session.call('exists', OP_CODES.exists, bodies.unwatched(path), [ZOO_CODES.ZNONODE]);
    return reply.header.err === ZOO_CODES.ZOK;
  }

  async deleteTree(path: string): Promise<number> {
    const listed = await this.session.call('getChildren', OP_CODES.getChildren, bodies.unwatched(path), [ZOO_CODES.ZNONODE]);
    if (listed.header.err === ZOO_CODES.ZNONODE) return 0;
    let deleted = 0;
    for (const child of readStrings(listed.body)) deleted += await this.deleteTree(`${path}/${child}`);
    // A child created meanwhile makes this NOTEMPTY: an error, and the next reconcile deletes again.
    const gone = await this.session.call('delete', OP_CODES.delete, bodies.delete(path, -1), [ZOO_CODES.ZNONODE]);
    return deleted + (gone.header.err === ZOO_CODES.ZOK ? 1 : 0);
  }

  close(): void {
    this.session.close();
  }
}

/** A tenant admin on the first member that opens a superuser session. */
export async function connectTenantAdmin(endpoints: readonly WireEndpoint[], superPassword: string, options: WireSessionOptions): Promise<TenantAdmin> {
  return new WireTenantAdmin(await openSuperuserSession(endpoints, superPassword, options));
}
