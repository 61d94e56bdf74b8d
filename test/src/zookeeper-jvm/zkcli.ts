// ZooKeeper's own command line client beside the bed's pods, run the way the pods run Debian's ZooKeeper.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { DEBIAN_ZOOKEEPER_CLASSPATH } from './classpath.js';
import { zookeeperJvmOptions } from './jvm-options.js';
import { withClusterResolver } from '../bed/cluster-resolver.js';

/** zkCli's word for a command whose connection broke before any answer: the outcome is unknown, as for any client. */
const CONNECTION_LOSS = 'KeeperErrorCode = ConnectionLoss';
const ATTEMPTS = 3;

/**
 * What zkCli's default watcher prints for each session event (SyncConnected, SaslAuthenticated, AuthFailed):
 * "\nWATCHER::\n" and "\nWatchedEvent …\n", each one println from the event thread. They can land between the main
 * thread's writes of one answer (`ls` prints "[", the children, then "]"), so they are moved to the end of the output.
 */
const WATCHER_NOTICE = /\nWATCHER::\n|\n(WatchedEvent [^\n]*)\n/g;

/**
 * ZooKeeper's own command line client (zkCli) running one command against `server` (host:port, comma-separated), with
 * the JVM options given (TLS, JAAS), resolving names through the bed's cluster DNS (`resolvConf`, BedInfo's): its whole output, and whether it exited 0 (it exits 1
 * when the command fails). zkCli does not retry a command whose connection was lost, as a long-lived client would, so
 * such a command is run again, up to three times; a create that did reach the server then says the node exists.
 */
export async function runZkCli(resolvConf: string, jvmOptions: readonly string[], server: string, ...command: string[]): Promise<{ ok: boolean; output: string }> {
  const shortLived = await zookeeperJvmOptions({ env: process.env, log: pino({ name: 'zkCli', level: 'warn' }) });
  const args = [...shortLived, ...jvmOptions, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.ZooKeeperMain', '-server', server, ...command];
  const java = withClusterResolver(resolvConf, 'java', args);
  for (let attempt = 1; ; attempt += 1) {
    const result = await zkCliOnce(java.command, java.args);
    if (result.ok || !result.output.includes(CONNECTION_LOSS) || attempt === ATTEMPTS) return result;
  }
}

async function zkCliOnce(command: string, args: readonly string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { timeout: 60_000 });
    return { ok: true, output: withWatcherNoticesLast(`${stdout}${stderr}`) };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: withWatcherNoticesLast(`${failed.stdout ?? ''}${failed.stderr ?? ''}`) };
  }
}

export function withWatcherNoticesLast(output: string): string {
  const notices: string[] = [];
  const answer = output.replace(WATCHER_NOTICE, (_notice, event: string | undefined) => {
    if (event !== undefined) notices.push(`${event}\n`);
    return '';
  });
  return answer + notices.join('');
}
