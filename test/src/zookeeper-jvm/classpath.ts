// The classpath every bed JVM runs Debian's ZooKeeper with: the agent's pods, local ensembles, zkCli and the TLS writer.
import { ZOOKEEPER_IMAGE_LAYOUTS } from '@zk-oam/apis';

/**
 * Debian's ZooKeeper as the workload's start script finds it in an image built from Debian's package: one classpath for
 * the product and the bed. Why each entry is there, and why the configuration directory comes last (unlike zkEnv.sh):
 * `controllers/workload/src/startup/image-contract.ts`.
 */
export const DEBIAN_ZOOKEEPER_CLASSPATH = ZOOKEEPER_IMAGE_LAYOUTS.debianClasspath.join(':');

export const ZOOKEEPER_SERVER_MAIN = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';
