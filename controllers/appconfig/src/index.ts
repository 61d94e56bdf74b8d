// Public surface of the appconfig package for tests: pure rendering and the status it reports.
export { renderApplication, type RenderInput } from './render/render.js';
export type { RenderedComponent, RenderedObject, RenderOutcome, RenderProblem, RenderProblemReason } from './render/outcome.js';
export type { Catalog } from './render/catalog.js';
export { IDENTITY, SYNCED_CONDITION, SYNCED_REASON } from './reconcile/index.js';
