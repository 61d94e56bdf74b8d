// The superuser admin verbs a disruptive step needs (reconfig, confirm-by-write), as a narrow interface over
// ZooKeeperAdmin so controllers can pass fakes, and one session per step whose uncertain outcomes are told apart from
// refusals.
import { ZooKeeperAdmin, type CommittedConfig, type ConfirmedWrite } from './client.js';
import { ZOO_CODES } from './codes.js';
import { ZooKeeperConnectionError, ZooKeeperOperationError } from './errors.js';
import type { HandleGate } from './handle-gate.js';
import type { ReconfigDelta } from '../dynamic-config/delta.js';
import type { Zxid } from '../zxid.js';

export interface EnsembleAdmin {
  reconfig(delta: ReconfigDelta, fromVersion: Zxid): Promise<CommittedConfig>;
  confirmByWrite(): Promise<ConfirmedWrite>;
  close(): void;
}

/** Every session of the process passes `gate`: one native handle at a time, each call with a deadline. */
export async function connectEnsembleAdmin(connectString: string, superPassword: string, timeoutMs: number, gate: HandleGate): Promise<EnsembleAdmin> {
  return ZooKeeperAdmin.connect({ connectString, superPassword, connectTimeoutMs: timeoutMs, sessionTimeoutMs: 10_000, operationTimeoutMs: 30_000, gate });
}

/** `done`: the work went through; `unsettled`: the world may or may not have changed, the next observation decides. */
export type AdminSessionOutcome = { kind: 'done' } | { kind: 'unsettled'; note: string };

/** Opens a session, runs `use`, closes it; refusals other than the unsettled ones are thrown. */
export async function withAdminSession(open: () => Promise<EnsembleAdmin>, use: (admin: EnsembleAdmin) => Promise<void>): Promise<AdminSessionOutcome> {
  let admin: EnsembleAdmin | undefined;
  try {
    admin = await open();
    await use(admin);
    return { kind: 'done' };
  } catch (error) {
    const note = unsettledBy(error);
    if (note === undefined) throw error;
    return { kind: 'unsettled', note };
  } finally {
    admin?.close();
  }
}

/** Failures after which the world may or may not have changed, or that the next look resolves; others are errors. */
export function unsettledBy(error: unknown): string | undefined {
  if (error instanceof ZooKeeperConnectionError) return `outcome unknown (${error.message}); the next observation decides`;
  if (!(error instanceof ZooKeeperOperationError)) return undefined;
  switch (error.code) {
    case ZOO_CODES.ZBADVERSION:
      return 'the committed config moved since it was read; planning again';
    case ZOO_CODES.ZRECONFIGINPROGRESS:
      return 'another reconfig is in progress; planning again';
    case ZOO_CODES.ZNEWCONFIGNOQUORUM:
      return 'the new configuration has no synced quorum yet; planning again';
    default:
      return undefined;
  }
}
