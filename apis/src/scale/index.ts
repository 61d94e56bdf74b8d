// ZookeeperScale: the trait that changes ensemble membership safely.
export * from './kind.js';
export * from './resource.js';
export * from './spec.js';
