// The classpath a bed pod runs Debian's ZooKeeper with; tests that run ZooKeeper's own tools beside the pods use it too.
/**
 * Debian's ZooKeeper: zkEnv.sh puts the conf dir and the one jar (whose manifest lists its dependencies) on the
 * classpath; slf4j-simple is added because the manifest names no logging binding, and without one the server is silent.
 * The manifest lists netty-handler but not netty-codec and netty-resolver, which Netty's TLS handler needs: without
 * them a secure client port accepts connections and drops them (ClassNotFoundException ByteToMessageDecoder).
 */
export const DEBIAN_ZOOKEEPER_CLASSPATH = [
  '/etc/zookeeper/conf',
  '/usr/share/java/zookeeper.jar',
  '/usr/share/java/slf4j-simple.jar',
  '/usr/share/java/netty-codec.jar',
  '/usr/share/java/netty-resolver.jar',
].join(':');
