// Public surface of the workload package for tests and benchmarks: pure rendering and the observer.
export { renderWorkload, type RenderedResource, type RenderedWorkload } from './render/render.js';
export type { RenderInput, UpdateStrategy } from './render/input.js';
export { buildSuperuserSecret } from './render/superuser-secret.js';
export { CONFIG_HASH_ANNOTATION, configHash } from './render/config-hash.js';
export { CA_ROTATION_ANNOTATION } from './tls/ca-rotation.js';
export { CERTIFICATE_ANNOTATION } from './tls/member-config.js';
export { QUORUM_TLS_ANNOTATION } from './tls/quorum-steps.js';
export { CLIENT_CA_ANNOTATION } from './tls/x509/client-ca-config.js';
export { heapMiB, jvmFlags } from './render/heap.js';
export { buildInitialDynamicConfig, memberServerEntry } from './render/initial-dynamic-config.js';
export { MissingIdentityError, selectorLabels, workloadLabels, workloadNames, type WorkloadNames } from './render/identity.js';
export { AffinityShapeError } from './render/placement.js';
export { FOUR_LETTER_WORD_WHITELIST } from './render/zoo-cfg.js';
export { CONFIG_FILES, CONFIG_MOUNT_PATH, DATA_MOUNT_PATH, memberHost } from './render/layout.js';
export type { AlertingRule, PrometheusRule, ServiceMonitor } from './render/monitoring-types.js';
export * from './observe/index.js';
export { noteSentences } from './reconcile/action-notes.js';
