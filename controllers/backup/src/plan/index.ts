// The backup controller's pure decisions: when a run is due, what a backup's objects and manifest are, what retention
// deletes, which runs the status keeps.
export * from './cron.js';
export * from './manifest.js';
export * from './retention.js';
export * from './runs.js';
export * from './schedule.js';
