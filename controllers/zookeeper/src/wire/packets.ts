// The few packets of ZooKeeper's client protocol the admin verbs need (org.apache.zookeeper.proto, ZooDefs.OpCode):
// the session handshake, the request and reply headers, and the bodies of auth, getData, setData, create, delete,
// exists, getACL, setACL, getChildren (and getChildren2, with the parent's Stat), sync and reconfig.
import { JuteReader, JuteWriter } from './jute.js';

export const OP_CODES = {
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  setData: 5,
  getACL: 6,
  setACL: 7,
  getChildren: 8,
  sync: 9,
  getChildren2: 12,
  ping: 11,
  reconfig: 16,
  auth: 100,
  closeSession: -11,
} as const;

/** Reserved xids: watch notifications, pings and the auth packet are answered under these. */
export const RESERVED_XIDS = { notification: -1, ping: -2, auth: -4 } as const;

/** One entry of a znode's ACL: the permissions (ZooDefs.Perms bits) granted to `scheme:id`. */
export interface AclEntry {
  readonly perms: number;
  readonly scheme: string;
  readonly id: string;
}

/** Perms ALL on world:anyone (ZooDefs.Ids.OPEN_ACL_UNSAFE). */
const OPEN_ACL: readonly AclEntry[] = [{ perms: 31, scheme: 'world', id: 'anyone' }];
const PERSISTENT = 0;

function writeAcl(writer: JuteWriter, acl: readonly AclEntry[]): JuteWriter {
  writer.int(acl.length);
  for (const entry of acl) writer.int(entry.perms).string(entry.scheme).string(entry.id);
  return writer;
}

/** A vector<ACL> as getACL answers it (before its Stat). */
export function readAcl(reader: JuteReader): AclEntry[] {
  const count = reader.int();
  return Array.from({ length: Math.max(count, 0) }, () => ({ perms: reader.int(), scheme: reader.string() ?? '', id: reader.string() ?? '' }));
}

/** A vector<ustring> as getChildren answers it. */
export function readStrings(reader: JuteReader): string[] {
  const count = reader.int();
  return Array.from({ length: Math.max(count, 0) }, () => reader.string() ?? '');
}

/** A new session: protocol 0, no zxid seen, no session to resume, not read-only. */
export function connectRequest(sessionTimeoutMs: number): Buffer {
  return new JuteWriter().int(0).long(0n).int(sessionTimeoutMs).long(0n).buffer(Buffer.alloc(16)).bool(false).framed();
}

export interface ConnectResponse {
  readonly timeoutMs: number;
  readonly sessionId: bigint;
}

/** A negotiated timeout of 0 means the server refused the session (for instance, one it considers expired). */
export function parseConnectResponse(packet: Buffer): ConnectResponse {
  const reader = new JuteReader(packet);
  reader.int();
  return { timeoutMs: reader.int(), sessionId: reader.long() };
}

export interface ReplyHeader {
  readonly xid: number;
  readonly zxid: bigint;
  readonly err: number;
}

export function readReplyHeader(reader: JuteReader): ReplyHeader {
  return { xid: reader.int(), zxid: reader.long(), err: reader.int() };
}

/** A znode's Stat, as every read answers it. */
export interface Stat {
  /** The zxid that created it, of its last data change, and of the last change to its children. */
  readonly czxid: bigint;
  readonly mzxid: bigint;
  readonly pzxid: bigint;
  /** Changes to its data, its children and its ACL. */
  readonly version: number;
  readonly cversion: number;
  readonly aversion: number;
  /** The owner's session of an ephemeral znode; 0 for a persistent one. */
  readonly ephemeralOwner: bigint;
  readonly numChildren: number;
}

export function readStat(reader: JuteReader): Stat {
  const czxid = reader.long();
  const mzxid = reader.long();
  reader.long();
  reader.long();
  const version = reader.int();
  const cversion = reader.int();
  const aversion = reader.int();
  const ephemeralOwner = reader.long();
  reader.int();
  const numChildren = reader.int();
  const pzxid = reader.long();
  return { czxid, mzxid, pzxid, version, cversion, aversion, ephemeralOwner, numChildren };
}

/** A request: its header, then the body `write` adds. */
export function requestPacket(xid: number, opCode: number, write: Body = () => undefined): Buffer {
  const writer = new JuteWriter().int(xid).int(opCode);
  write(writer);
  return writer.framed();
}

function bytesOf(data: string | Buffer): Buffer {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** Writes a request's body. */
export type Body = (writer: JuteWriter) => void;

export const bodies = {
  auth: (scheme: string, credential: string): Body => (writer) => writer.int(0).string(scheme).buffer(Buffer.from(credential, 'utf8')),
  path: (path: string): Body => (writer) => writer.string(path),
  getData: (path: string): Body => (writer) => writer.string(path).bool(false),
  /** Data given as a string is written as UTF-8. */
  setData: (path: string, data: string | Buffer, version: number): Body => (writer) => writer.string(path).buffer(bytesOf(data)).int(version),
  /** A persistent znode, with the open ACL unless one is given. */
  create: (path: string, data: string | Buffer, acl: readonly AclEntry[] = OPEN_ACL): Body => (writer) =>
    writeAcl(writer.string(path).buffer(bytesOf(data)), acl).int(PERSISTENT),
  delete: (path: string, version: number): Body => (writer) => writer.string(path).int(version),
  /** exists and getChildren: a path, and no watch. */
  unwatched: (path: string): Body => (writer) => writer.string(path).bool(false),
  setAcl: (path: string, acl: readonly AclEntry[], version: number): Body => (writer) => writeAcl(writer.string(path), acl).int(version),
  /** Incremental reconfig: joining and leaving as ZooKeeper's reconfig takes them, guarded by the config version. */
  reconfig: (joining: string | undefined, leaving: string | undefined, fromVersion: bigint): Body => (writer) =>
    writer.string(joining).string(leaving).string(undefined).long(fromVersion),
};
