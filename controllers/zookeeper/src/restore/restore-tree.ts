// A backup's znodes written into an ensemble through the superuser's session (whose writes no ACL stops), and the
// check that comes first: which persistent znodes the ensemble already holds. Knows nothing of where the znodes come
// from; the caller decides whether what is there may be written over (only its own earlier, interrupted writes).
import { ZOO_CODES } from '../admin/codes.js';
import { ZooKeeperOperationError } from '../admin/errors.js';
import { eachLimited, readTree, type DumpedZnode } from '../dump/read-tree.js';
import type { ZnodeCalls } from '../tenant/tenant-admin.js';
import { bodies, OP_CODES } from '../wire/packets.js';

/** Requests in flight at once, as the dump reads: ZooKeeper applies one session's requests in the order sent. */
export const WRITES_IN_FLIGHT = 32;

/** The paths of the persistent znodes the ensemble holds, the root and ZooKeeper's own subtree left out. */
export async function existingPaths(session: ZnodeCalls): Promise<string[]> {
  const paths: string[] = [];
  await readTree(session, {
    begin: () => Promise.resolve(),
    add: (znode) => {
      if (znode.path !== '/') paths.push(znode.path);
      return Promise.resolve();
    },
  });
  return paths;
}

/** Overwrites a znode that exists (an interrupted restore wrote it): its data, then its ACL, whatever their versions. */
async function overwrite(session: ZnodeCalls, znode: DumpedZnode): Promise<void> {
  await Promise.all([
    session.call('setData', OP_CODES.setData, bodies.setData(znode.path, znode.data, -1)),
    session.call('setACL', OP_CODES.setACL, bodies.setAcl(znode.path, znode.acl, -1)),
  ]);
}

/** A refusal names the znode refused: a person reads which one, and its ACL, in the restore's message. */
function naming(path: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof ZooKeeperOperationError) throw new ZooKeeperOperationError({ operation: error.operation, connectString: error.connectString, code: error.code, detail: path });
    throw error;
  };
}

/**
 * Writes every znode with its data and ACL; `znodes` with each parent before its children (a backup's order), so
 * each is sent before them and the requests can be pipelined. A znode that exists is overwritten, so a restore interrupted midway is finished by
 * running it again. The root exists in every ensemble: its data and ACL are set. Returns how many were created.
 */
export async function writeTree(session: ZnodeCalls, znodes: readonly DumpedZnode[], inFlight = WRITES_IN_FLIGHT): Promise<number> {
  let created = 0;
  await eachLimited(znodes, inFlight, async (znode) => {
    if (znode.path === '/') {
      await overwrite(session, znode).catch(naming(znode.path));
      return;
    }
    const reply = await session.call('create', OP_CODES.create, bodies.create(znode.path, znode.data, znode.acl), [ZOO_CODES.ZNODEEXISTS]).catch(naming(znode.path));
    if (reply.header.err === ZOO_CODES.ZNODEEXISTS) await overwrite(session, znode).catch(naming(znode.path));
    else created++;
  });
  return created;
}
