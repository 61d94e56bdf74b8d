// ZooKeeper's own command line client beside the bed's pods, run the way the pods run Debian's ZooKeeper.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { DEBIAN_ZOOKEEPER_CLASSPATH } from './classpath.js';
import { zookeeperJvmOptions } from './jvm-options.js';

/**
 * ZooKeeper's own command line client (zkCli) running one command against `server` (host:port, comma-separated), with
 * the JVM options given (TLS, JAAS) and the bed's hosts file: its whole output, and whether it exited 0 (it exits 1
 * when the command fails).
 */
export async function runZkCli(hostsFile: string, jvmOptions: readonly string[], server: string, ...command: string[]): Promise<{ ok: boolean; output: string }> {
  const shortLived = await zookeeperJvmOptions({ env: process.env, log: pino({ name: 'zkCli', level: 'warn' }) });
  const args = [...shortLived, `-Djdk.net.hosts.file=${hostsFile}`, ...jvmOptions, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.ZooKeeperMain', '-server', server, ...command];
  try {
    const { stdout, stderr } = await promisify(execFile)('java', args, { timeout: 60_000 });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}
