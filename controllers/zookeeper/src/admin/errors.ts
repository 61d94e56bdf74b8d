// Admin client failures: the connection (retry elsewhere or later) versus the operation (ZooKeeper said no).
import { codeName } from './codes.js';

interface AdminErrorContext {
  /** What the client was doing, e.g. "reconfig" or "getConfig". */
  operation: string;
  connectString: string;
}

/** No usable session: could not connect in time, connection lost, session expired, client closed. */
export class ZooKeeperConnectionError extends Error {
  override readonly name = 'ZooKeeperConnectionError';
  readonly operation: string;
  readonly connectString: string;
  readonly code: number | undefined;

  constructor(message: string, context: AdminErrorContext & { code?: number }, options?: { cause?: unknown }) {
    super(`${context.operation} via ${context.connectString}: ${message}`, options);
    this.operation = context.operation;
    this.connectString = context.connectString;
    this.code = context.code;
  }
}

/** ZooKeeper refused the operation itself (NOAUTH, BADVERSION, NEWCONFIGNOQUORUM, ...). */
export class ZooKeeperOperationError extends Error {
  override readonly name = 'ZooKeeperOperationError';
  readonly operation: string;
  readonly connectString: string;
  readonly code: number;
  /** The C client's name for the code, e.g. "ZNOAUTH". */
  readonly codeName: string;

  constructor(context: AdminErrorContext & { code: number; detail?: string }) {
    const name = codeName(context.code);
    const detail = context.detail === undefined ? '' : ` (${context.detail})`;
    super(`${context.operation} via ${context.connectString} failed: ${name}${detail}`);
    this.operation = context.operation;
    this.connectString = context.connectString;
    this.code = context.code;
    this.codeName = name;
  }
}
