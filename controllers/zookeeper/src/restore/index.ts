// A backup's znodes written into an ensemble, and what the ensemble held before.
export { existingPaths, writeTree, WRITES_IN_FLIGHT } from './restore-tree.js';
