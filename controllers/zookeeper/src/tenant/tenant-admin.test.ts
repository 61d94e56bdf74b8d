// The tenant verbs against a scripted tree: the path is born with its ACL, parents get the read-only one, an existing
// path's other ACL is replaced, and a tree goes deepest first; "exists" and "no node" are outcomes, not errors.
import { describe, expect, it } from 'vitest';
import { ZOO_CODES } from '../admin/codes.js';
import { ZooKeeperOperationError } from '../admin/errors.js';
import { JuteReader, JuteWriter } from '../wire/jute.js';
import { OP_CODES, requestPacket, type AclEntry, type Body } from '../wire/packets.js';
import type { Reply } from '../wire/wire-session.js';
import { PARENT_ACL, tenantAcl } from './acl.js';
import { WireTenantAdmin } from './tenant-admin.js';

interface Node {
  acl: AclEntry[];
}

/** A ZooKeeper tree answering the requests WireTenantAdmin sends, decoded as the server would. */
class ScriptedTree {
  readonly nodes = new Map<string, Node>([['/', { acl: [] }]]);
  readonly calls: string[] = [];

  call(operation: string, opCode: number, write?: Body, accept: readonly number[] = []): Promise<Reply> {
    const request = new JuteReader(requestPacket(1, opCode, write).subarray(12));
    const path = request.string() ?? '';
    this.calls.push(`${operation} ${path}`);
    const [err, body] = this.answer(opCode, path, request);
    if (err !== 0 && !accept.includes(err)) return Promise.reject(new ZooKeeperOperationError({ operation, connectString: 'tree', code: err }));
    return Promise.resolve({ header: { xid: 1, zxid: 1n, err }, body: new JuteReader(body.framed().subarray(4)) });
  }

  private answer(opCode: number, path: string, request: JuteReader): [number, JuteWriter] {
    const node = this.nodes.get(path);
    const none: [number, JuteWriter] = [ZOO_CODES.ZNONODE, new JuteWriter()];
    const ok = (body = new JuteWriter()): [number, JuteWriter] => [0, body];
    switch (opCode) {
      case OP_CODES.create:
        return this.create(path, request);
      case OP_CODES.getACL:
        return node === undefined ? none : ok(writeAclTo(new JuteWriter(), node.acl));
      case OP_CODES.setACL:
        if (node === undefined) return none;
        node.acl = readAclFrom(request);
        return ok();
      case OP_CODES.exists:
        return node === undefined ? none : ok();
      case OP_CODES.getChildren: {
        const names = this.children(path).map((child) => child.slice(path.length + 1));
        return node === undefined ? none : ok(names.reduce((writer, name) => writer.string(name), new JuteWriter().int(names.length)));
      }
      case OP_CODES.delete:
        if (node === undefined) return none;
        if (this.children(path).length > 0) return [ZOO_CODES.ZNOTEMPTY, new JuteWriter()];
        this.nodes.delete(path);
        return ok();
      default:
        throw new Error(`unexpected op ${String(opCode)}`);
    }
  }

  private create(path: string, request: JuteReader): [number, JuteWriter] {
    request.buffer();
    const acl = readAclFrom(request);
    if (this.nodes.has(path)) return [ZOO_CODES.ZNODEEXISTS, new JuteWriter()];
    this.nodes.set(path, { acl });
    return [0, new JuteWriter().string(path)];
  }

  private children(path: string): string[] {
    return [...this.nodes.keys()].filter((candidate) => candidate.startsWith(`${path}/`) && !candidate.slice(path.length + 1).includes('/'));
  }

  close(): void {}
}

function readAclFrom(reader: JuteReader): AclEntry[] {
  const count = reader.int();
  return Array.from({ length: count }, () => ({ perms: reader.int(), scheme: reader.string() ?? '', id: reader.string() ?? '' }));
}

function writeAclTo(writer: JuteWriter, acl: readonly AclEntry[]): JuteWriter {
  return acl.reduce((w, entry) => w.int(entry.perms).string(entry.scheme).string(entry.id), writer.int(acl.length));
}

const alice = tenantAcl({ scheme: 'sasl', id: 'alice' });

describe('ensurePath', () => {
  it('creates the missing parents read-only and the path born with its ACL, then finds it there', async () => {
    const tree = new ScriptedTree();
    const admin = new WireTenantAdmin(tree);
    expect(await admin.ensurePath('/kafka/prod', alice)).toEqual({ created: true, aclChanged: false });
    expect(tree.nodes.get('/kafka')?.acl).toEqual(PARENT_ACL);
    expect(tree.nodes.get('/kafka/prod')?.acl).toEqual(alice);
    expect(await admin.ensurePath('/kafka/prod', alice)).toEqual({ created: false, aclChanged: false });
    expect(tree.calls.filter((call) => call.startsWith('setACL'))).toEqual([]);
  });

  it("replaces an existing path's other ACL", async () => {
    const tree = new ScriptedTree();
    tree.nodes.set('/app', { acl: tenantAcl(undefined) });
    expect(await new WireTenantAdmin(tree).ensurePath('/app', alice)).toEqual({ created: false, aclChanged: true });
    expect(tree.nodes.get('/app')?.acl).toEqual(alice);
  });
});

describe('pathExists and deleteTree', () => {
  it('deletes the path and everything under it, deepest first, and counts what went', async () => {
    const tree = new ScriptedTree();
    for (const path of ['/t', '/t/a', '/t/a/x', '/t/b', '/other']) tree.nodes.set(path, { acl: [] });
    const admin = new WireTenantAdmin(tree);
    expect(await admin.deleteTree('/t')).toBe(4);
    expect(tree.calls.filter((call) => call.startsWith('delete'))).toEqual(['delete /t/a/x', 'delete /t/a', 'delete /t/b', 'delete /t']);
    expect([...tree.nodes.keys()]).toEqual(['/', '/other']);
    expect(await admin.pathExists('/t')).toBe(false);
    expect(await admin.pathExists('/other')).toBe(true);
  });

  it('counts 0 for a path that is not there', async () => {
    expect(await new WireTenantAdmin(new ScriptedTree()).deleteTree('/gone')).toBe(0);
  });
});
