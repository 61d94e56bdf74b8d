// The classpath every bed JVM runs Debian's ZooKeeper with: the agent's pods, local ensembles, zkCli and the TLS writer.

/**
 * Debian's ZooKeeper: zkEnv.sh puts the conf dir and the one jar (whose manifest lists its dependencies) on the
 * classpath; slf4j-simple is added because the manifest names no logging binding, and without one the server is silent.
 * The manifest lists netty-handler but not netty-codec and netty-resolver, which Netty's TLS handler needs: without
 * them a secure client port accepts connections and drops them (ClassNotFoundException ByteToMessageDecoder).
 * The conf dir comes last, unlike zkEnv.sh: it holds no classes, and a class-data sharing archive cannot be made with a
 * non-empty directory before the jars.
 */
export const DEBIAN_ZOOKEEPER_CLASSPATH = [
  '/usr/share/java/zookeeper.jar',
  '/usr/share/java/slf4j-simple.jar',
  '/usr/share/java/netty-codec.jar',
  '/usr/share/java/netty-resolver.jar',
  '/etc/zookeeper/conf',
].join(':');

export const ZOOKEEPER_SERVER_MAIN = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';
