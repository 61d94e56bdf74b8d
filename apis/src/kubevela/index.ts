// KubeVela definitions of the ZooKeeper kinds, generated from the zod schemas.
export { COMPONENT_TYPE, kubeVelaDefinitions, ROLLING_TRAIT_TYPE, SCALE_TRAIT_TYPE, type KubeVelaDefinition } from './definitions.js';
export { cueType, parameterBlock } from './cue-schema.js';
