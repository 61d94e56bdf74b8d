// Opens a native ZooKeeper session with a deadline, and turns each async call into a promise that classifies failures.
import { isConnectionCode, ZOO_CODES } from './codes.js';
import { ZooKeeperConnectionError, ZooKeeperOperationError } from './errors.js';
import type { HandleGate } from './handle-gate.js';
import { createNativeHandle, type Completion, type NativeHandle } from './native.js';

export interface SessionOptions {
  /** `host:port,host:port`; members are addressed by IP. */
  connectString: string;
  connectTimeoutMs: number;
  sessionTimeoutMs: number;
  /** Budget for one call; a late answer is ignored. */
  operationTimeoutMs: number;
  /** Held from before the handle is created until it is closed; waiting for it counts against the connect budget. */
  gate?: HandleGate;
}

export interface Outcome {
  rc: number;
  first: unknown;
  second: unknown;
}

export interface Session {
  readonly connectString: string;
  /** Runs one binding call; resolves with its outcome when rc is OK or in `accepted`, rejects otherwise. */
  call(operation: string, start: (handle: NativeHandle, done: Completion) => unknown, accepted?: readonly number[]): Promise<Outcome>;
  close(): void;
}

function nativeHandle(options: SessionOptions): NativeHandle {
  return createNativeHandle({
    connect: options.connectString,
    timeout: options.sessionTimeoutMs,
    debug_level: 0,
    host_order_deterministic: false,
    // The binding closes a handle as "expired" after 10 consecutive wake-ups with nothing to process (its default).
    // While another handle of this process reconnects after a member died, that fires within milliseconds on a healthy
    // ensemble (seen: every new session failed "closed while connecting"). The C client judges expiry itself.
    response_counter_limit: 1_000_000,
  });
}

export async function openSession(options: SessionOptions): Promise<Session> {
  const leaveGate = (await options.gate?.enter(options.connectTimeoutMs, { operation: 'connect', connectString: options.connectString })) ?? ((): void => {});
  let handle: NativeHandle;
  try {
    handle = nativeHandle(options);
  } catch (error: unknown) {
    leaveGate();
    throw error;
  }
  let closed = false;
  const close = (): void => {
    if (!closed) {
      closed = true;
      handle.removeAllListeners();
      handle.close();
      leaveGate();
    }
  };
  const context = (operation: string): { operation: string; connectString: string } => ({
    operation,
    connectString: options.connectString,
  });

  await new Promise<void>((resolve, reject) => {
    // The connect's deadline, not a wait: the handle's events race it.
    const timer = setTimeout(() => {
      close();
      reject(new ZooKeeperConnectionError(`no session within ${options.connectTimeoutMs} ms`, context('connect')));
    }, options.connectTimeoutMs);
    handle.on('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    handle.on('close', () => {
      clearTimeout(timer);
      close();
      reject(new ZooKeeperConnectionError('session closed while connecting', context('connect')));
    });
    try {
      handle.init({});
    } catch (error: unknown) {
      clearTimeout(timer);
      close();
      reject(new ZooKeeperConnectionError('cannot start the client', context('connect'), { cause: error }));
    }
  });

  const call: Session['call'] = (operation, start, accepted = []) =>
    new Promise<Outcome>((resolve, reject) => {
      if (closed) {
        reject(new ZooKeeperConnectionError('client is closed', { ...context(operation), code: ZOO_CODES.ZCLOSING }));
        return;
      }
      let settled = false;
      // The call's deadline, not a wait: the answer races it.
      const timer = setTimeout(() => {
        settled = true;
        // The handle may be wedged: it is closed, so the gate passes to the next session of this process.
        close();
        reject(new ZooKeeperConnectionError(`no answer within ${options.operationTimeoutMs} ms`, context(operation)));
      }, options.operationTimeoutMs);
      const done: Completion = (rc, error, first, second) => {
        if (settled) {
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (rc === ZOO_CODES.ZOK || accepted.includes(rc)) {
          resolve({ rc, first, second });
        } else if (isConnectionCode(rc)) {
          reject(new ZooKeeperConnectionError(String(error), { ...context(operation), code: rc }));
        } else {
          reject(new ZooKeeperOperationError({ ...context(operation), code: rc, detail: String(error) }));
        }
      };
      try {
        start(handle, done);
      } catch (error: unknown) {
        settled = true;
        clearTimeout(timer);
        reject(new ZooKeeperConnectionError('the client refused the call', context(operation), { cause: error }));
      }
    });

  return { connectString: options.connectString, call, close };
}
