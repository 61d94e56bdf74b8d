// What both admin clients (the npm binding's session and the TLS session) make of ZooKeeper's answers: the committed
// configuration a getConfig or reconfig returns, and the confirm-by-write token read back.
import { parseDynamicConfig } from '../dynamic-config/config.js';
import type { CommittedConfig } from './client.js';
import { ZOO_CODES } from './codes.js';
import { ZooKeeperOperationError } from './errors.js';

interface AnswerContext {
  readonly operation: string;
  readonly connectString: string;
}

/** The configuration in `/zookeeper/config`'s data; one without a version is a malformed answer. */
export function committedConfigOf(data: unknown, context: AnswerContext): CommittedConfig {
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : typeof data === 'string' ? data : '';
  const config = parseDynamicConfig(text);
  if (config.version === undefined) {
    throw malformedAnswer(context, `config without version: ${JSON.stringify(text)}`);
  }
  return { servers: config.servers, version: config.version };
}

export function malformedAnswer(context: AnswerContext, detail: string): ZooKeeperOperationError {
  return new ZooKeeperOperationError({ ...context, code: ZOO_CODES.ZMARSHALLINGERROR, detail });
}

/** A value no earlier confirm wrote. */
export function confirmToken(): string {
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** The confirm znode read back after a sync must hold the token just written. */
export function checkReadBack(readBack: string, token: string, connectString: string): void {
  if (readBack !== token) {
    throw new ZooKeeperOperationError({
      operation: 'confirm read',
      connectString,
      code: ZOO_CODES.ZDATAINCONSISTENCY,
      detail: `read back "${readBack}" instead of "${token}"`,
    });
  }
}
