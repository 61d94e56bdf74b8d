// OAM core.oam.dev/v1alpha2: Component, ApplicationConfiguration, WorkloadDefinition, TraitDefinition.
export * from './application-configuration.js';
export * from './common.js';
export * from './component.js';
export * from './definitions.js';
export * from './kinds.js';
