// The zk-oam API contract: CRD schemas, OAM kinds and the NATS event contract.
export * from './common/conditions.js';
export * from './common/kind.js';
export * from './common/object-meta.js';
export * from './common/quantity.js';
export * from './common/resource.js';
export * from './common/workload-ref.js';
export * from './crd/manifests.js';
export * from './crd/types.js';
export * from './events/index.js';
export * from './oam/index.js';
export * from './parse.js';
export * from './reasons/index.js';
export * from './rolling/index.js';
export * from './scale/index.js';
export * from './workload/index.js';
export * from './chart/values.js';
