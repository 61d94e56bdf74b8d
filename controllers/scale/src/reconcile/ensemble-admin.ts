// The ZooKeeper admin operations a scale step needs, as a narrow interface over ZooKeeperAdmin (tests pass fakes).
import { ZooKeeperAdmin, type CommittedConfig, type HandleGate, type ConfirmedWrite, type ReconfigDelta, type Zxid } from '@zk-oam/zookeeper';

export interface EnsembleAdmin {
  reconfig(delta: ReconfigDelta, fromVersion: Zxid): Promise<CommittedConfig>;
  confirmByWrite(): Promise<ConfirmedWrite>;
  close(): void;
}

/** Every session of the process passes `gate`: one native handle at a time, each call with a deadline. */
export async function connectEnsembleAdmin(connectString: string, superPassword: string, timeoutMs: number, gate: HandleGate): Promise<EnsembleAdmin> {
  return ZooKeeperAdmin.connect({ connectString, superPassword, connectTimeoutMs: timeoutMs, sessionTimeoutMs: 10_000, operationTimeoutMs: 30_000, gate });
}
