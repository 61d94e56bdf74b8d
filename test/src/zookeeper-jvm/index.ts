// The bed's JVMs of Debian's ZooKeeper (the node agent's pods, local ensembles, zkCli, the TLS writer): their classpath,
// and their options tuned for short lives, with a class-data sharing archive, in one place.
export { DEBIAN_ZOOKEEPER_CLASSPATH, ZOOKEEPER_SERVER_MAIN } from './classpath.js';
export { SHORT_LIVED_JVM_FLAGS, sharedArchiveOptions } from './flags.js';
export { zookeeperCdsArchive } from './cds-archive.js';
export { zookeeperJvmOptions, type JvmEnvironment } from './jvm-options.js';
export { runZkCli } from './zkcli.js';
