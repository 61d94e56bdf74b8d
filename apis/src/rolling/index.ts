// ZookeeperRolling: the trait that restarts members leader-last.
export * from './kind.js';
export * from './resource.js';
export * from './spec.js';
