// ZookeeperZnode: a tenant's path in an ensemble, with its principal and discovery objects.
export * from './contract.js';
export * from './kind.js';
export * from './resource.js';
export * from './spec.js';
