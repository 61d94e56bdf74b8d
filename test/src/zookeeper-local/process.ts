// One ZooKeeper JVM as a child process: start with output to a log file, stop gently or kill, always reaped.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { DEBIAN_ZOOKEEPER_CLASSPATH, ZOOKEEPER_SERVER_MAIN } from '../zookeeper-jvm/classpath.js';

export interface ServerProcess {
  readonly pid: number;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after graceMs; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  kill(): Promise<void>;
}

export interface ServerProcessOptions {
  configFile: string;
  logFile: string;
  superDigest: string | undefined;
  /** Options before the class path (the bed's short-lived JVM options, or a benchmark's). */
  jvmOptions: readonly string[];
}

function serverArgs(options: ServerProcessOptions): string[] {
  return [
    ...options.jvmOptions,
    // slf4j-simple logs without a time unless asked.
    '-Dorg.slf4j.simpleLogger.showDateTime=true',
    "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSS",
    ...(options.superDigest === undefined ? [] : [`-Dzookeeper.DigestAuthenticationProvider.superDigest=${options.superDigest}`]),
    '-cp',
    DEBIAN_ZOOKEEPER_CLASSPATH,
    ZOOKEEPER_SERVER_MAIN,
    options.configFile,
  ];
}

export function startServerProcess(options: ServerProcessOptions): ServerProcess {
  const logFd = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn('java', serverArgs(options), { stdio: ['ignore', logFd, logFd] });
  } finally {
    closeSync(logFd);
  }
  let exited = false;
  // 'error' covers a JVM that could not be spawned at all; either way the process is gone.
  const exit = new Promise<void>((resolve) => {
    const gone = (): void => {
      exited = true;
      resolve();
    };
    child.once('exit', gone);
    child.once('error', gone);
  });
  const pid = child.pid;
  if (pid === undefined) {
    throw new Error(`could not start java for ${options.configFile}`);
  }
  const signalAndWait = async (signal: NodeJS.Signals, graceMs: number): Promise<void> => {
    if (exited) {
      return;
    }
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exit;
    clearTimeout(timer);
  };
  return {
    pid,
    alive: () => !exited,
    stop: (graceMs = 10_000) => signalAndWait('SIGTERM', graceMs),
    kill: () => signalAndWait('SIGKILL', 0),
  };
}
