// The test bed's public API: start a whole bed or its parts, and get kubeconfigs for ServiceAccounts.
export { startBed, type Bed, type BedInfo, type BedOptions } from './bed.js';
export { startControlPlane, type ControlPlane, type ControlPlaneOptions } from './control-plane.js';
export { resolveBinaries, type Binaries } from './binaries.js';
export { serviceAccountBearerToken, serviceAccountKubeconfig } from './service-account.js';
export { startNats, type NatsServer } from './nats.js';
export { bedStorageClass } from './storage-class.js';
export { processesMentioning, reapProcessesMentioning, isAlive } from './reap.js';
export { BedBinariesError, BedProcessError, BedSetupError } from './errors.js';
