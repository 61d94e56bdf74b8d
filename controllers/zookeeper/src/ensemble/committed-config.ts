// Reads the committed configuration from the leader's `conf` (its membership section and version), else from any
// serving member's. A four-letter word opens no ZooKeeper session: observing holds no native handle, so a member that
// dies mid-read costs one refused socket, never a session reconnecting in the background. The leader is asked
// first: its view is never behind. A reconfig planned from a stale version fails on that version and is planned again.
import type { CommittedConfig } from '../admin/client.js';
import { fourLetterWord, type FourLetterWordTls } from '../four-letter-words/client.js';
import { parseConf } from '../four-letter-words/conf.js';
import type { CommittedConfigReading, ObservedPod } from './ensemble-observation.js';
import { CommittedConfigReadError, NoServingMemberError } from './errors.js';

/** Asks one member for `conf`; tests inject answers. */
export type ConfReader = (host: string, port: number, timeoutMs: number, tls: FourLetterWordTls | undefined) => Promise<string>;

export const readConfOverTcp: ConfReader = (host, port, timeoutMs, tls) => fourLetterWord(host, port, 'conf', { timeoutMs, tls });

/** How members are trusted on a secure client port: the CA, and the DNS name each member's certificate must carry. */
export interface EnsembleTls {
  readonly ca: string;
  readonly serverName: (member: { readonly pod: string; readonly myid: number }) => string;
}

export class UnversionedConfigError extends Error {
  override readonly name = 'UnversionedConfigError';
  constructor() {
    super('conf lists no version= line: the member runs no committed dynamic configuration');
  }
}

export async function readCommittedConfig(
  members: readonly ObservedPod[],
  options: { clientPort: number; timeoutMs: number; readConf?: ConfReader; tls?: EnsembleTls | undefined },
): Promise<CommittedConfigReading> {
  const serving = members.filter((member) => member.observation.srvr !== undefined && member.ip !== undefined);
  const source = serving.find((member) => member.observation.srvr?.mode === 'leader') ?? serving[0];
  if (source?.ip === undefined) {
    return { ok: false, error: new NoServingMemberError(members.length) };
  }
  try {
    const tls = options.tls === undefined ? undefined : { ca: options.tls.ca, serverName: options.tls.serverName(source) };
    const { membership } = parseConf(await (options.readConf ?? readConfOverTcp)(source.ip, options.clientPort, options.timeoutMs, tls));
    if (membership.version === undefined) throw new UnversionedConfigError();
    const config: CommittedConfig = { servers: membership.servers, version: membership.version };
    return { ok: true, config, readFrom: source.pod };
  } catch (error: unknown) {
    return { ok: false, error: new CommittedConfigReadError(source.pod, { cause: error }) };
  }
}
