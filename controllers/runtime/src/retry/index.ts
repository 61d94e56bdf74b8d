// The retry kit: the one backoff, the one abortable sleep, and a bounded retry built on them. Also the package's
// `@zk-oam/runtime/retry` entry, for packages that need these alone (the ZooKeeper client) without the controller kit.
export { backoffDelayMs, jittered, reconnectBackoff, type BackoffPolicy } from './backoff.js';
export { pause } from './pause.js';
export { retryWithBackoff, type RetryOptions } from './retry-with-backoff.js';
