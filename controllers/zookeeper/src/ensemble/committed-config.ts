// Reads the committed configuration (/zookeeper/config via getConfig) from the leader, else from any serving member.
//
// Why getConfig and not `conf`: it reads the znode reconfig commits to, so the version in status is the one the scale
// controller must pass to reconfig; reading it needs no auth; and it keeps `conf` out of the four-letter-word whitelist
// (invariant 7: the whitelist stays minimal, srvr and mntr). The leader is asked first: its view is never behind.
import { ZooKeeperAdmin, type CommittedConfig } from '../admin/client.js';
import type { CommittedConfigReading, ObservedPod } from './ensemble-observation.js';
import { CommittedConfigReadError, NoServingMemberError } from './errors.js';

/** The part of the admin client the observer uses; a session per read, closed afterwards. */
export interface ConfigReader {
  getConfig(): Promise<CommittedConfig>;
  close(): void;
}

export type AdminFactory = (connectString: string, timeoutMs: number) => Promise<ConfigReader>;

export const connectAdmin: AdminFactory = (connectString, timeoutMs) =>
  ZooKeeperAdmin.connect({ connectString, connectTimeoutMs: timeoutMs, operationTimeoutMs: timeoutMs });

export async function readCommittedConfig(
  members: readonly ObservedPod[],
  options: { clientPort: number; timeoutMs: number; adminFactory: AdminFactory },
): Promise<CommittedConfigReading> {
  const serving = members.filter((member) => member.observation.srvr !== undefined && member.ip !== undefined);
  const source = serving.find((member) => member.observation.srvr?.mode === 'leader') ?? serving[0];
  if (source?.ip === undefined) {
    return { ok: false, error: new NoServingMemberError(members.length) };
  }
  let reader: ConfigReader | undefined;
  try {
    reader = await options.adminFactory(`${source.ip}:${options.clientPort}`, options.timeoutMs);
    return { ok: true, config: await reader.getConfig(), readFrom: source.pod };
  } catch (error: unknown) {
    return { ok: false, error: new CommittedConfigReadError(source.pod, { cause: error }) };
  } finally {
    reader?.close();
  }
}
