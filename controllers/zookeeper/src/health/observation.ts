// What the operator saw of one member: its four-letter-word answers, or why it gave none.
import { NotServingError, NotWhitelistedError } from '../four-letter-words/errors.js';
import type { MntrAnswer } from '../four-letter-words/mntr.js';
import type { SrvrAnswer } from '../four-letter-words/srvr.js';

export interface MemberObservation {
  id: number;
  /** How a person finds the member: the pod IP (or IP:port). */
  address: string;
  srvr?: SrvrAnswer;
  mntr?: MntrAnswer;
  /** Why srvr gave no answer, when it did not. */
  error?: Error;
  /** Why mntr gave no answer while srvr did (the model then relies on srvr alone). */
  mntrError?: Error;
}

/** "member 3 (10.0.0.3)": how every health message names a member. */
export function memberLabel(member: { id: number; address: string | undefined }): string {
  return member.address === undefined ? `member ${member.id}` : `member ${member.id} (${member.address})`;
}

/** Why a member has no usable answer, in words: "is not serving requests", "does not answer: ...". */
export function describeFailure(observation: MemberObservation | undefined): string {
  if (observation === undefined) {
    return 'was not observed';
  }
  if (observation.error instanceof NotServingError) {
    return 'is not serving requests';
  }
  if (observation.error instanceof NotWhitelistedError) {
    return 'refuses srvr (not in 4lw.commands.whitelist)';
  }
  if (observation.error !== undefined) {
    return `does not answer: ${observation.error.message}`;
  }
  return 'gave no srvr answer';
}
