// Turns the two plain-text refusals ZooKeeper sends instead of an answer into typed errors.
import { NotServingError, NotWhitelistedError } from './errors.js';

const NOT_SERVING = 'This ZooKeeper instance is not currently serving requests';
const NOT_WHITELISTED = 'is not executed because it is not in the whitelist.';

/** Returns the answer unchanged, or throws the refusal it stands for. */
export function classifyAnswer(context: { host: string; port: number; word: string }, text: string): string {
  if (text.includes(NOT_SERVING)) {
    throw new NotServingError(context);
  }
  if (text.includes(NOT_WHITELISTED)) {
    throw new NotWhitelistedError(context);
  }
  return text;
}
