// A narrow, typed view of the npm `zookeeper` binding (C client): the calls the admin client makes, nothing else.
import ZooKeeper from 'zookeeper';

/** Every async call of the binding completes with (rc, error text, then call-specific values). */
export type Completion = (rc: number, error: unknown, first?: unknown, second?: unknown) => void;

export interface NativeHandle {
  init(config: object): unknown;
  on(event: 'connect' | 'connecting' | 'close', listener: () => void): unknown;
  removeAllListeners(): unknown;
  close(): unknown;
  add_auth(scheme: string, auth: string, done: Completion): unknown;
  a_getconfig(watch: boolean, done: Completion): unknown;
  a_reconfig(joining: string | null, leaving: string | null, members: string | null, version: number, done: Completion): unknown;
  a_sync(path: string, done: Completion): unknown;
  a_create(path: string, data: string | Buffer, flags: number, done: Completion): unknown;
  a_set(path: string, data: string | Buffer, version: number, done: Completion): unknown;
  a_get(path: string, watch: boolean, done: Completion): unknown;
  a_get_children(path: string, watch: boolean, done: Completion): unknown;
  a_delete_(path: string, version: number, done: Completion): unknown;
}

export interface NativeConfig {
  connect: string;
  /** Session timeout in ms. */
  timeout: number;
  /** 0 silences the C client's own stderr logging; errors reach us as return codes. */
  debug_level: number;
  host_order_deterministic: boolean;
  response_counter_limit?: number;
}

/** The create flag that makes ZooKeeper append a monotonically increasing counter to the name. */
export const SEQUENCE_FLAG: number = ZooKeeper.ZOO_SEQUENCE;

export function createNativeHandle(config: NativeConfig): NativeHandle {
  return new ZooKeeper(config);
}
