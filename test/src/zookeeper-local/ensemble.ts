// A real ZooKeeper 3.8 ensemble on this machine without Kubernetes: member N runs on loopback IP 127.0.1.N.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { superDigest, type ServerEntry } from '@zk-oam/zookeeper';
import pino, { type Logger } from 'pino';
import { localServerEntry, renderDynamicConfig, renderStaticConfig, type MemberPorts } from './member-files.js';
import { startServerProcess, type ServerProcess } from './process.js';
import { waitUntilServing } from './wait.js';
import { zookeeperJvmOptions } from '../zookeeper-jvm/index.js';

export interface LocalEnsembleOptions {
  size: number;
  /** State directory: one sub-directory per member (config, data, log). */
  dir: string;
  /** When set, the superuser digest is configured so reconfig can authenticate. */
  superPassword?: string;
  /** Client port; quorum and election ports follow ZooKeeper's 2181/2888/3888 spacing. Default 2181. */
  basePort?: number;
  /** First three octets of the members' IPs. Default 127.0.1. */
  ipPrefix?: string;
  /** How long one member may take to serve. Default 90 s. */
  startTimeoutMs?: number;
  /** The members' JVM options. Default: the bed's short-lived JVM options (test/src/zookeeper-jvm). */
  jvmOptions?: readonly string[];
  log?: Logger;
}

export interface LocalMember {
  id: number;
  ip: string;
  ports: MemberPorts;
  /** `ip:clientPort`, the form connect strings use. */
  clientAddress: string;
  dir: string;
  logFile: string;
  running(): boolean;
  /** The JVM's pid while it runs (or last ran). */
  pid(): number | undefined;
}

export interface LocalEnsemble {
  members(): LocalMember[];
  member(id: number): LocalMember;
  /** Connect string over the given members (default: all running). */
  connectString(ids?: number[]): string;
  /** The server line each member is known by, as participant. */
  serverEntry(id: number, role?: ServerEntry['role']): ServerEntry;
  start(id: number): Promise<void>;
  stop(id: number): Promise<void>;
  kill(id: number): Promise<void>;
  /**
   * Starts a new member as a non-voting observer: its dynamic file lists `committed` (the current
   * configuration) plus itself as observer, so it syncs without voting until a reconfig adds it.
   */
  addJoiner(id: number, committed: ServerEntry[]): Promise<LocalMember>;
  /**
   * Stops member `id` and starts it again as a joiner of `committed`, with its data, as a pod that is not in the
   * configuration the ensemble runs with restarts (the workload's start script).
   */
  restartAsJoiner(id: number, committed: ServerEntry[]): Promise<LocalMember>;
  /** Stops every member; leaves no process behind. */
  stopAll(): Promise<void>;
}

interface MemberState {
  member: LocalMember;
  configFile: string;
  process: ServerProcess | undefined;
}

export async function startLocalEnsemble(options: LocalEnsembleOptions): Promise<LocalEnsemble> {
  const basePort = options.basePort ?? 2181;
  const ports: MemberPorts = { client: basePort, quorum: basePort + 707, election: basePort + 1707 };
  const ipPrefix = options.ipPrefix ?? '127.0.1';
  const startTimeoutMs = options.startTimeoutMs ?? 90_000;
  const digest = options.superPassword === undefined ? undefined : superDigest(options.superPassword);
  const log = options.log ?? pino({ name: 'zookeeper-local', level: 'info' });
  const jvmOptions = options.jvmOptions ?? (await zookeeperJvmOptions({ env: process.env, log }));
  const states = new Map<number, MemberState>();

  const entryOf = (id: number, role: ServerEntry['role'] = 'participant'): ServerEntry =>
    localServerEntry({ id, ip: `${ipPrefix}.${id}` }, ports, role);

  const prepare = (id: number, servers: ServerEntry[]): MemberState => {
    const dir = join(options.dir, `member-${id}`);
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir, { recursive: true });
    const configFile = join(dir, 'zoo.cfg');
    const dynamicConfigFile = join(dir, 'zoo.cfg.dynamic');
    writeFileSync(join(dataDir, 'myid'), `${id}\n`);
    writeFileSync(dynamicConfigFile, renderDynamicConfig(servers));
    writeFileSync(configFile, renderStaticConfig({ dataDir, dynamicConfigFile }));
    const ip = `${ipPrefix}.${id}`;
    const state: MemberState = {
      configFile,
      process: undefined,
      member: {
        id,
        ip,
        ports,
        clientAddress: `${ip}:${ports.client}`,
        dir,
        logFile: join(dir, 'zookeeper.log'),
        running: () => state.process?.alive() ?? false,
        pid: () => state.process?.pid,
      },
    };
    states.set(id, state);
    return state;
  };

  const stateOf = (id: number): MemberState => {
    const state = states.get(id);
    if (state === undefined) {
      throw new Error(`no local ZooKeeper member ${id}`);
    }
    return state;
  };

  const launch = (state: MemberState): void => {
    if (state.process?.alive()) {
      return;
    }
    state.process = startServerProcess({ configFile: state.configFile, logFile: state.member.logFile, superDigest: digest, jvmOptions });
    log.info({ member: state.member.id, ip: state.member.ip, pid: state.process.pid }, 'started ZooKeeper member');
  };

  const awaitServing = async (state: MemberState): Promise<void> => {
    const started = Date.now();
    const srvr = await waitUntilServing(
      { host: state.member.ip, port: ports.client, label: `member ${state.member.id} (${state.member.clientAddress})` },
      { timeoutMs: startTimeoutMs, isAlive: () => state.member.running() },
    );
    log.info({ member: state.member.id, mode: srvr.mode, ms: Date.now() - started }, 'ZooKeeper member serving');
  };

  const stopAll = async (): Promise<void> => {
    await Promise.all([...states.values()].map(async (state) => state.process?.stop()));
    log.info({ members: states.size }, 'stopped local ZooKeeper ensemble');
  };

  const startJoiner = async (id: number, committed: ServerEntry[]): Promise<LocalMember> => {
    const others = committed.filter((server) => server.id !== id);
    const state = prepare(id, [...others, entryOf(id, 'observer')]);
    launch(state);
    await awaitServing(state);
    return state.member;
  };

  const initial = Array.from({ length: options.size }, (_, index) => entryOf(index + 1));
  const initialStates = initial.map((entry) => prepare(entry.id, initial));
  try {
    initialStates.forEach(launch);
    await Promise.all(initialStates.map(awaitServing));
  } catch (error: unknown) {
    await stopAll();
    throw error;
  }

  return {
    members: () => [...states.values()].map((state) => state.member).sort((a, b) => a.id - b.id),
    member: (id) => stateOf(id).member,
    connectString: (ids) =>
      (ids ?? [...states.values()].filter((state) => state.member.running()).map((state) => state.member.id))
        .map((id) => stateOf(id).member.clientAddress)
        .join(','),
    serverEntry: entryOf,
    start: async (id) => {
      const state = stateOf(id);
      launch(state);
      await awaitServing(state);
    },
    stop: async (id) => {
      await stateOf(id).process?.stop();
      log.info({ member: id }, 'stopped ZooKeeper member');
    },
    kill: async (id) => {
      await stateOf(id).process?.kill();
      log.info({ member: id }, 'killed ZooKeeper member');
    },
    addJoiner: async (id, committed) => {
      if (states.has(id)) {
        throw new Error(`local ZooKeeper member ${id} already exists`);
      }
      return startJoiner(id, committed);
    },
    restartAsJoiner: async (id, committed) => {
      await stateOf(id).process?.stop();
      return startJoiner(id, committed);
    },
    stopAll,
  };
}
