// The ZooKeeper image contract's layouts: where well-known images keep java and ZooKeeper's jars. The workload's
// start.sh looks there (controllers/workload/src/startup/image-contract.ts); the bed's images are built to one of them.

/** Where well-known images keep ZooKeeper, for images that set neither ZOOKEEPER_CLASSPATH nor ZOOKEEPER_HOME. */
export interface ZookeeperImageLayouts {
  /**
   * A glob of ZooKeeper release directories (`bin/zkServer.sh`, `lib/*.jar`) at the root of the official image. That
   * image also puts their `bin` on PATH and sets ZOOCFGDIR to its configuration directory.
   */
  readonly releaseHomes: string;
  /** The official image's configuration directory (logback.xml: without it logback logs everything at DEBUG). */
  readonly releaseConfDir: string;
  /** Debian's `zookeeper` package, whose files lie in the system's directories: its classpath, when its first jar is there. */
  readonly debianClasspath: readonly [jar: string, ...rest: string[]];
}

export const ZOOKEEPER_IMAGE_LAYOUTS: ZookeeperImageLayouts = {
  releaseHomes: '/apache-zookeeper-*-bin',
  releaseConfDir: '/conf',
  // zookeeper.jar's manifest lists its dependencies, but no logging binding (without one the server is silent:
  // slf4j-simple logs to stderr) and not netty-codec and netty-resolver, which Netty's TLS handler needs (without them
  // a secure port accepts connections and drops them: ClassNotFoundException ByteToMessageDecoder). The configuration
  // directory holds no classes and comes last, unlike zkEnv.sh: a class-data sharing archive cannot be made with a
  // non-empty directory before the jars.
  debianClasspath: [
    '/usr/share/java/zookeeper.jar',
    '/usr/share/java/slf4j-simple.jar',
    '/usr/share/java/netty-codec.jar',
    '/usr/share/java/netty-resolver.jar',
    '/etc/zookeeper/conf',
  ],
};
