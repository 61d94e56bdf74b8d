// The znode controller's surface for tests: its pure decisions and rendering.
export * from './plan/index.js';
export * from './render/index.js';
