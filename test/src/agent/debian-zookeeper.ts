// The classpath a bed pod runs Debian's ZooKeeper with; tests that run ZooKeeper's own tools beside the pods use it too.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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

/**
 * ZooKeeper's own command line client (zkCli) running one command against `server` (host:port, comma-separated), with
 * the JVM options given (TLS, JAAS) and the bed's hosts file: its whole output, and whether it exited 0 (it exits 1
 * when the command fails).
 */
export async function runZkCli(hostsFile: string, jvmOptions: readonly string[], server: string, ...command: string[]): Promise<{ ok: boolean; output: string }> {
  const args = [`-Djdk.net.hosts.file=${hostsFile}`, ...jvmOptions, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.ZooKeeperMain', '-server', server, ...command];
  try {
    const { stdout, stderr } = await promisify(execFile)('java', args, { timeout: 60_000 });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}
