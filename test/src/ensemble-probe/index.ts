// Watching an ensemble while an operation runs: a continuous writer (no acknowledged write lost), its TLS counterpart,
// and a leader tracker.
export { ContinuousWriter, type ContinuousWriterOptions, type WriterReport } from './continuous-writer.js';
export { LeaderTracker, summarise, type LeaderReport, type LeaderTrackerOptions, type Sample } from './leader-tracker.js';
export { JavaWriter, type JavaClientSettings, type JavaWriterReport } from './java-writer.js';
export { createZookeeperClient } from './znode-client.js';
