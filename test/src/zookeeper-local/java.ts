// How a Debian ZooKeeper 3.8 server is launched as a plain JVM process (zkEnv.sh's classpath, a console logger).
export const ZOOKEEPER_MAIN = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';

/** zookeeper.jar's manifest pulls in its dependencies; log4j 1.2 + the slf4j binding make its logs visible. */
export const ZOOKEEPER_CLASSPATH = [
  '/etc/zookeeper/conf',
  '/usr/share/java/zookeeper.jar',
  '/usr/share/java/slf4j-log4j12.jar',
  '/usr/share/java/log4j-1.2.jar',
].join(':');

/** JVM arguments sized for several servers on a 2-core machine: small heap, quick startup. */
export function zookeeperJvmArgs(options: { configFile: string; superDigest: string | undefined }): string[] {
  return [
    '-Xmx192m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Xshare:auto',
    '-Dzookeeper.root.logger=INFO,CONSOLE',
    '-Dlog4j.configuration=file:/etc/zookeeper/conf/log4j.properties',
    ...(options.superDigest === undefined
      ? []
      : [`-Dzookeeper.DigestAuthenticationProvider.superDigest=${options.superDigest}`]),
    '-cp',
    ZOOKEEPER_CLASSPATH,
    ZOOKEEPER_MAIN,
    options.configFile,
  ];
}
