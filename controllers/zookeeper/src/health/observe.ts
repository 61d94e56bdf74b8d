// Collects one member's observation over four-letter words; failures become part of the observation, never throws.
import { fourLetterWord, type FourLetterWordTls } from '../four-letter-words/client.js';
import { parseMntr } from '../four-letter-words/mntr.js';
import { parseSrvr } from '../four-letter-words/srvr.js';
import type { MemberObservation } from './observation.js';

export interface MemberEndpoint {
  id: number;
  host: string;
  clientPort: number;
  /** Set when clientPort is a secure port. */
  tls?: FourLetterWordTls | undefined;
}

/** srvr always; mntr too when asked (the leader's mntr carries the synced-follower counts). */
export async function observeMember(
  endpoint: MemberEndpoint,
  options: { timeoutMs?: number; mntr?: boolean } = {},
): Promise<MemberObservation> {
  const address = endpoint.host;
  const wordOptions = { timeoutMs: options.timeoutMs ?? 3_000, tls: endpoint.tls };
  try {
    const srvr = parseSrvr(await fourLetterWord(endpoint.host, endpoint.clientPort, 'srvr', wordOptions));
    if (options.mntr !== true) {
      return { id: endpoint.id, address, srvr };
    }
    try {
      const mntr = parseMntr(await fourLetterWord(endpoint.host, endpoint.clientPort, 'mntr', wordOptions));
      return { id: endpoint.id, address, srvr, mntr };
    } catch (error: unknown) {
      return { id: endpoint.id, address, srvr, mntrError: asError(error) };
    }
  } catch (error: unknown) {
    return { id: endpoint.id, address, error: asError(error) };
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Observes every member concurrently. */
export function observeMembers(
  endpoints: readonly MemberEndpoint[],
  options: { timeoutMs?: number; mntr?: boolean } = {},
): Promise<MemberObservation[]> {
  return Promise.all(endpoints.map((endpoint) => observeMember(endpoint, options)));
}
