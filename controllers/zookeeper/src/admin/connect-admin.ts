// How a controller opens its superuser session for a step: the npm binding on the plain client port, or the protocol
// spoken over TLS on the secure one when that is the only port the members open. The members are the ones the
// controller observed, so the session goes where the observation just went, trusted the same way.
import type { MemberAccess } from '../ensemble/observe-ensemble.js';
import { dumpTree, type TreeDump } from '../dump/dump.js';
import type { DumpedZnode, DumpSink } from '../dump/read-tree.js';
import { existingPaths, writeTree } from '../restore/restore-tree.js';
import { connectTenantAdmin, type TenantAdmin } from '../tenant/tenant-admin.js';
import { openSuperuserSession } from '../wire/superuser-session.js';
import type { WireEndpoint, WireSessionOptions } from '../wire/wire-session.js';
import { connectTlsEnsembleAdmin } from '../wire/tls-admin.js';
import { connectEnsembleAdmin, type EnsembleAdmin } from './ensemble-admin.js';
import type { HandleGate } from './handle-gate.js';

/** A member to open the session with: its pod and myid (its certificate's name follows from them), dialled by IP. */
export interface AdminTarget {
  readonly pod: string;
  readonly myid: number;
  readonly ip: string;
}

export type AdminConnector = (targets: readonly AdminTarget[], access: MemberAccess, superPassword: string) => Promise<EnsembleAdmin>;

const SESSION_TIMEOUT_MS = 10_000;
const OPERATION_TIMEOUT_MS = 30_000;

/** `timeoutMs` bounds the connect; plain sessions pass the process's native-handle gate. */
export function adminConnector(timeoutMs: number, gate: HandleGate): AdminConnector {
  return (targets, access, superPassword) => {
    const tls = access.tls;
    if (tls === undefined) {
      return connectEnsembleAdmin(targets.map((target) => `${target.ip}:${String(access.port)}`).join(','), superPassword, timeoutMs, gate);
    }
    const endpoints = targets.map((target) => ({ host: target.ip, port: access.port, serverName: tls.serverName(target) }));
    return connectTlsEnsembleAdmin(endpoints, superPassword, {
      ca: tls.ca,
      connectTimeoutMs: timeoutMs,
      sessionTimeoutMs: SESSION_TIMEOUT_MS,
      operationTimeoutMs: OPERATION_TIMEOUT_MS,
    });
  };
}

export type TenantAdminConnector = (targets: readonly AdminTarget[], access: MemberAccess, superPassword: string) => Promise<TenantAdmin>;

/** The members as the wire protocol dials them: by IP, and over TLS with the name each one's certificate carries. */
function wireEndpoints(targets: readonly AdminTarget[], access: MemberAccess): WireEndpoint[] {
  const tls = access.tls;
  return targets.map((target) => ({ host: target.ip, port: access.port, ...(tls === undefined ? {} : { serverName: tls.serverName(target) }) }));
}

function wireOptions(access: MemberAccess, timeoutMs: number): WireSessionOptions {
  return { ca: access.tls?.ca, connectTimeoutMs: timeoutMs, sessionTimeoutMs: SESSION_TIMEOUT_MS, operationTimeoutMs: OPERATION_TIMEOUT_MS };
}

/**
 * The superuser's session for a tenant's path, on the members `access` says: over TLS on the secure port (checking each
 * member's name), or on the plain port. Always the wire protocol, whose create carries the path's ACL.
 */
export function tenantAdminConnector(timeoutMs: number): TenantAdminConnector {
  return (targets, access, superPassword) => connectTenantAdmin(wireEndpoints(targets, access), superPassword, wireOptions(access, timeoutMs));
}

/** A superuser's session that dumps the tree (dump/), then closes. */
export interface TreeDumper {
  /** The member the session is on (its pod), whose reads the walk is: a follower whenever one opened it. */
  readonly member: string;
  dump(sink: DumpSink, attempts: number): Promise<TreeDump>;
  close(): void;
}

export type TreeDumperConnector = (targets: readonly AdminTarget[], access: MemberAccess, superPassword: string) => Promise<TreeDumper>;

/**
 * The superuser's session for a dump, on the first of `targets` that opens one (list the followers first to keep the
 * walk's reads off the leader), over TLS whenever the members open a secure port only.
 */
export function treeDumperConnector(timeoutMs: number): TreeDumperConnector {
  return async (targets, access, superPassword) => {
    const session = await openSuperuserSession(wireEndpoints(targets, access), superPassword, wireOptions(access, timeoutMs));
    const member = targets.find((target) => session.address.startsWith(`${target.ip}:`) || session.address.startsWith(`[${target.ip}]:`))?.pod ?? session.address;
    return { member, dump: (sink, attempts) => dumpTree(session, sink, attempts), close: () => session.close() };
  };
}

/** A superuser's session that restores a tree (restore/): what the ensemble holds, then the writes. */
export interface TreeRestorer {
  /** The persistent znodes the ensemble holds, but the root and /zookeeper. */
  existingPaths(): Promise<string[]>;
  /** Writes the znodes (each after its parent), overwriting any that exist; how many were created. */
  write(znodes: readonly DumpedZnode[]): Promise<number>;
  close(): void;
}

export type TreeRestorerConnector = (targets: readonly AdminTarget[], access: MemberAccess, superPassword: string) => Promise<TreeRestorer>;

/** The superuser's session for a restore, on the first of `targets` that opens one, over TLS whenever the members open a secure port only. */
export function treeRestorerConnector(timeoutMs: number): TreeRestorerConnector {
  return async (targets, access, superPassword) => {
    const session = await openSuperuserSession(wireEndpoints(targets, access), superPassword, wireOptions(access, timeoutMs));
    return { existingPaths: () => existingPaths(session), write: (znodes) => writeTree(session, znodes), close: () => session.close() };
  };
}
