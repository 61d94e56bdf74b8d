// ZookeeperBackup: an ensemble's persistent znodes saved to object storage, with a manifest of checksums.
export * from './contract.js';
export * from './kind.js';
export * from './resource.js';
export * from './spec.js';
export * from './target.js';
