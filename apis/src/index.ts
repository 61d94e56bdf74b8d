// The zk-oam API contract: CRD schemas, OAM kinds and the NATS event contract.
export * from './events/index.js';
