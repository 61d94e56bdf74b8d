// A client writing throughout an operation, over TLS or plain, and afterwards the check that every write ZooKeeper
// acknowledged is still there. The Node binding the other probes use has no TLS and resolves names with the machine's
// resolver, so this runs ZooKeeper's own Java client (java-writer/JavaWriter.java, launched from source) with the
// client TLS settings zkCli takes, resolving names through the bed's cluster DNS as a client in a pod does.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { DEBIAN_ZOOKEEPER_CLASSPATH, zookeeperJvmOptions } from '../zookeeper-jvm/index.js';
import { waitFor } from '../wait-for.js';
import { withClusterResolver } from '../bed/cluster-resolver.js';

const SOURCE = fileURLToPath(new URL('java-writer/JavaWriter.java', import.meta.url));
const run = promisify(execFile);

export interface JavaClientSettings {
  /** Over TLS, trusting the CA in this PEM file (the one the members' certificates chain to); plain without it. */
  readonly caFile?: string;
  /** The bed's resolv.conf (BedInfo's), so the JVM resolves the members' and Services' names through cluster DNS. */
  readonly resolvConf: string;
}

/** The client settings and the bed's short-lived JVM options, for both of the writer's JVMs. */
interface JavaClientJvm extends JavaClientSettings {
  readonly jvmOptions: readonly string[];
}

export interface JavaWriterReport {
  readonly acknowledged: number;
  /** Writes whose outcome is unknown (the connection went while they were in flight). */
  readonly unacknowledged: number;
  /** Acknowledged writes missing afterwards: must be none. */
  readonly lost: readonly string[];
  /** The longest time between two acknowledged writes, by the writer's clock. */
  readonly longestGapMs: number;
  readonly sessions: number;
}

function javaArgs(settings: JavaClientJvm, mode: 'write' | 'list', connect: string, root: string): string[] {
  return [
    ...settings.jvmOptions,
    // A member replaced during the operation comes back under its name with a new address.
    '-Dsun.net.inetaddr.ttl=1',
    ...(settings.caFile === undefined
      ? []
      : [
          '-Dzookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty',
          '-Dzookeeper.client.secure=true',
          `-Dzookeeper.ssl.trustStore.location=${settings.caFile}`,
          '-Dzookeeper.ssl.trustStore.type=PEM',
        ]),
    '-cp',
    DEBIAN_ZOOKEEPER_CLASSPATH,
    SOURCE,
    mode,
    connect,
    root,
  ];
}

export class JavaWriter {
  private readonly acknowledged: { path: string; at: number }[] = [];
  private unacknowledged = 0;
  private sessions = 0;
  private stderrTail: string[] = [];

  private constructor(
    private readonly settings: JavaClientJvm,
    private readonly connect: string,
    private readonly root: string,
    private readonly child: ChildProcess,
  ) {
    if (child.stdout !== null) createInterface({ input: child.stdout }).on('line', (line) => this.read(line));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = [...this.stderrTail, chunk.toString()].slice(-20);
    });
  }

  /** Starts writing to `root` through `connect` (`host:port,...`: addresses or names); resolves after the first acknowledged write. */
  static async start(settings: JavaClientSettings, connect: string, root: string): Promise<JavaWriter> {
    const jvm = { ...settings, jvmOptions: await zookeeperJvmOptions({ env: process.env, log: pino({ name: 'java-writer', level: 'warn' }) }) };
    const java = withClusterResolver(jvm.resolvConf, 'java', javaArgs(jvm, 'write', connect, root));
    const child = spawn(java.command, java.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const writer = new JavaWriter(jvm, connect, root, child);
    await waitFor('the TLS writer to write', () => Promise.resolve(writer.count), (count) => count > 0 || child.exitCode !== null, 120_000, 200);
    if (writer.count === 0) throw new Error(`the TLS writer exited (${String(child.exitCode)}): ${writer.stderrTail.join('')}`);
    return writer;
  }

  /** Acknowledged writes so far. */
  get count(): number {
    return this.acknowledged.length;
  }

  /** Stops writing, then lists what ZooKeeper holds and reports. */
  async stop(): Promise<JavaWriterReport> {
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exited;
    const java = withClusterResolver(this.settings.resolvConf, 'java', javaArgs(this.settings, 'list', this.connect, this.root));
    const { stdout } = await run(java.command, java.args, { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    const present = new Set(stdout.split('\n').flatMap((line) => (line.startsWith('HAS ') ? [`${this.root}/${line.slice(4)}`] : [])));
    return {
      acknowledged: this.acknowledged.length,
      unacknowledged: this.unacknowledged,
      lost: this.acknowledged.map((write) => write.path).filter((path) => !present.has(path)),
      longestGapMs: this.acknowledged.reduce((longest, write, index) => Math.max(longest, index === 0 ? 0 : write.at - (this.acknowledged[index - 1]?.at ?? write.at)), 0),
      sessions: this.sessions,
    };
  }

  private read(line: string): void {
    const [word, path, at] = line.split(' ');
    if (word === 'ACK' && path !== undefined) this.acknowledged.push({ path, at: Number(at) });
    else if (word === 'FAIL') this.unacknowledged += 1;
    else if (word === 'SESSION') this.sessions += 1;
  }
}
