// The restore's writes against a scripted session: every znode created with its ACL in the order given (parents
// first), the root and znodes that exist overwritten (a restore interrupted midway is finished by running it again),
// and a refusal naming the znode refused.
import { describe, expect, it } from 'vitest';
import { ZOO_CODES } from '../admin/codes.js';
import { ZooKeeperOperationError } from '../admin/errors.js';
import type { DumpedZnode } from '../dump/read-tree.js';
import { JuteReader, JuteWriter } from '../wire/jute.js';
import { OP_CODES, requestPacket, type Body } from '../wire/packets.js';
import type { Reply } from '../wire/wire-session.js';
import { writeTree } from './restore-tree.js';

const NAMES = new Map<number, string>([
  [OP_CODES.create, 'create'],
  [OP_CODES.setData, 'setData'],
  [OP_CODES.setACL, 'setACL'],
]);

/** Answers create with "exists" for the paths given, and refuses the paths given; records what was sent. */
function scripted(existing: readonly string[], refused: readonly string[] = []): { calls: string[]; call: (operation: string, opCode: number, write?: Body, accept?: readonly number[]) => Promise<Reply> } {
  const calls: string[] = [];
  return {
    calls,
    call: (operation, opCode, write, accept = []) => {
      const path = new JuteReader(requestPacket(1, opCode, write).subarray(12)).string() ?? '';
      calls.push(`${NAMES.get(opCode) ?? String(opCode)} ${path}`);
      const err = refused.includes(path) ? ZOO_CODES.ZINVALIDACL : opCode === OP_CODES.create && existing.includes(path) ? ZOO_CODES.ZNODEEXISTS : 0;
      if (err !== 0 && !accept.includes(err)) return Promise.reject(new ZooKeeperOperationError({ operation, connectString: 'tree', code: err }));
      return Promise.resolve({ header: { xid: 1, zxid: 1n, err }, body: new JuteReader(new JuteWriter().framed().subarray(4)) });
    },
  };
}

const znode = (path: string): DumpedZnode => ({ path, data: Buffer.from(path), acl: [{ perms: 31, scheme: 'sasl', id: 'alice' }] });
const tree = ['/', '/a', '/a/b', '/a/b/c', '/d'].map(znode);

describe('writeTree', () => {
  it('sends the creates in the order given, the root overwritten, and counts what it created', async () => {
    const session = scripted([]);
    expect(await writeTree(session, tree, 2)).toBe(4);
    expect(session.calls).toEqual(['setData /', 'setACL /', 'create /a', 'create /a/b', 'create /a/b/c', 'create /d']);
  });

  it('overwrites the data and ACL of a znode that exists: an interrupted restore finishes', async () => {
    const session = scripted(['/a', '/a/b']);
    expect(await writeTree(session, tree.slice(1), 1)).toBe(2);
    expect(session.calls).toEqual(['create /a', 'setData /a', 'setACL /a', 'create /a/b', 'setData /a/b', 'setACL /a/b', 'create /a/b/c', 'create /d']);
  });

  it('names the znode ZooKeeper refused', async () => {
    await expect(writeTree(scripted([], ['/a/b']), tree)).rejects.toThrow('create via tree failed: ZINVALIDACL (/a/b)');
  });
});
