// Pure rendering of a znode's discovery objects.
export { connectionOf, type Connection } from './connection.js';
export { buildDiscoveryConfigMap, buildDiscoverySecret, jaasClientSection, ZNODE_LABEL, type DiscoveryInput, type DiscoveryObject, type SaslCredentials } from './discovery.js';
