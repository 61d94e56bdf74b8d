// The console as a library: its server and cluster directory, for the process (main.ts) and for tests.
export { ClusterDirectory, type ConsoleCluster } from './clusters.js';
export { createConsoleServer, type ConsoleServerOptions } from './server.js';
