// ZookeeperWorkload: the ensemble as an OAM workload.
export * from './authentication.js';
export * from './cached-fields.js';
export * from './contract.js';
export * from './example.js';
export * from './image-layouts.js';
export * from './kind.js';
export * from './placement.js';
export * from './resource.js';
export * from './resources.js';
export * from './restore.js';
export * from './spec.js';
export * from './status.js';
export * from './tls.js';
export * from './zoo-config.js';
export * from './znodes.js';
