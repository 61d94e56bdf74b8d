// What kind of process a CPU sample belongs to, from the thread's name (perf's comm) and the command lines its pid ran
// (a pid that execs, start.sh becoming java, has several): the bed's parts, the pods' processes and the test run's own.

const GO_SERVERS = ['kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kubectl', 'nats-server', 'docker-registry'];
const SHELL_TOOLS = new Set(['bash', 'sh', 'sed', 'cat', 'timeout', 'grep', 'sort', 'mkdir', 'openssl', 'sleep', 'head', 'cp', 'mv', 'ln', 'rm']);
/** JVM thread names perf reports instead of `java` (the comm is 15 characters at most). */
const JVM_THREADS = /^(java|C1 CompilerThre|C2 CompilerThre|GC Thread|G1 |VM Thread|VM Periodic|QuorumPeer|NIO|nioEventLoop|SyncThread|main|Signal Dispatch|Common-Cleaner|LearnerHandler|CommitProcessor|Session|RequestThrottle|ProcessThread|FollowerRequest|LeaderRequest|Sender|Thread-)/;

function javaKind(commandLines: string): string {
  if (commandLines.includes('FourLetterWordMain')) return 'java: FourLetterWordMain (start.sh asking peers)';
  if (commandLines.includes('start.sh') || commandLines.includes('QuorumPeerMain') || commandLines.includes('DigestAuthenticationProvider')) return 'java: ZooKeeper members (pods)';
  return 'java: local ensembles, zkCli, TLS writer';
}

function nodeKind(commandLines: string): string {
  if (commandLines.includes('/dist/main.mjs')) return 'node: controllers and console';
  if (commandLines.includes('agent/main.ts')) return 'node: the node agent';
  if (commandLines.includes('vitest')) return 'node: vitest (tests)';
  if (commandLines.includes('eslint')) return 'node: eslint';
  if (/\/tsc( |$)/m.test(commandLines)) return 'node: tsc';
  return 'node: other';
}

/** The kind of a sample of thread `comm` in a process that ran `commandLines` (empty when never seen: short-lived). */
export function processKind(pid: number, comm: string, commandLines: readonly string[]): string {
  if (pid === 0) return 'idle';
  const lines = commandLines.join('\n');
  // By the program's own name: the bed's binaries live in a directory named after their versions (…-etcd-v3.6.8/).
  const programs = commandLines.map((line) => (line.split(' ')[0] ?? '').split('/').at(-1) ?? '');
  const program = programs.join(' ');
  const server = GO_SERVERS.find((name) => programs.includes(name)) ?? GO_SERVERS.find((name) => comm.startsWith(name.slice(0, 15)));
  if (server !== undefined) return server;
  if (SHELL_TOOLS.has(comm)) return 'shell tools (probes, scripts)';
  if (JVM_THREADS.test(comm) || program.includes('java')) return javaKind(lines);
  if (comm === 'node' || comm.startsWith('V8') || comm.startsWith('libuv') || program.includes('node')) return nodeKind(lines);
  if (comm.startsWith('chromium') || comm.startsWith('Chrome') || comm.startsWith('ThreadPool')) return 'chromium';
  return `other: ${comm}`;
}
