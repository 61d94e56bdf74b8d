// start.sh's choice of dynamic configuration, run for real in bash with a fake `java` that plays the peers' `conf`
// answers and records the server command line instead of starting ZooKeeper.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalQuorumTlsStep } from '@zk-oam/apis';
import { afterEach, describe, expect, it } from 'vitest';
import { buildInitialDynamicConfig } from '../render/initial-dynamic-config.js';
import { memberDomain } from '../render/layout.js';
import { minimalWorkload } from '../render/test-workloads.js';
import { buildZooCfg } from '../render/zoo-cfg.js';
import { START_SCRIPT } from './start-script.js';

const workload = minimalWorkload();
const domain = memberDomain(workload);
const host = (ordinal: number): string => `zk-${ordinal}.${domain}`;
const line = (ordinal: number, role: 'participant' | 'observer' = 'participant'): string =>
  `server.${ordinal + 1}=${host(ordinal)}:2888:3888:${role};${host(ordinal)}:2181`;

/** `conf` as a serving ZooKeeper 3.8 answers it: settings, then the membership it runs with. */
function confAnswer(...members: string[]): string {
  return ['clientPort=2181', 'dataDir=/data/data/version-2', 'serverId=1', 'membership: ', ...members, 'version=100000003'].join('\n');
}

/**
 * Answers FourLetterWordMain from <dir>/answers/<host> (or fails like an unreachable peer) and records how it was asked
 * in <dir>/asked; records server starts.
 */
const FAKE_JAVA = `#!/bin/bash
for arg in "$@"; do
  case "$arg" in
    org.apache.zookeeper.client.FourLetterWordMain) asking=1 ;;
    org.apache.zookeeper.server.quorum.QuorumPeerMain) printf '%s\\n' "$@" > "$FAKE_ZK/server-args"; exit 0 ;;
    *) if [[ "\${asking:-}" == 1 ]]; then peer="$arg"; printf '%s\\n' "$@" > "$FAKE_ZK/asked"; [[ -f "$FAKE_ZK/answers/$peer" ]] || exit 1; cat "$FAKE_ZK/answers/$peer"; exit 0; fi ;;
  esac
done
exit 2
`;

interface Member {
  root: string;
  dataDir: string;
  run(options?: { timeoutMs?: number }): Promise<{ output: string; killed: boolean }>;
  chosen(): Promise<string>;
  answers(peer: string, text: string): Promise<void>;
  /** The arguments of the last FourLetterWordMain run, one a line. */
  asked(): Promise<string>;
}

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function member(ordinal: number, initialMembers = 3, extraEnv: Record<string, string> = {}): Promise<Member> {
  const root = await mkdtemp(join(tmpdir(), 'zk-start-'));
  roots.push(root);
  const configDir = join(root, 'config');
  const dataDir = join(root, 'data');
  const binDir = join(root, 'bin');
  await Promise.all([mkdir(configDir), mkdir(dataDir), mkdir(binDir), mkdir(join(root, 'answers'))]);
  await writeFile(join(configDir, 'zoo.cfg'), buildZooCfg(workload.spec, finalQuorumTlsStep(workload.spec.tls)));
  await writeFile(join(configDir, 'dynamic.initial.cfg'), buildInitialDynamicConfig(workload, initialMembers));
  await writeFile(join(configDir, 'start.sh'), START_SCRIPT);
  await writeFile(join(binDir, 'java'), FAKE_JAVA);
  await chmod(join(binDir, 'java'), 0o755);
  const env = {
    PATH: `${binDir}:${process.env['PATH'] ?? ''}`,
    FAKE_ZK: root,
    POD_NAME: `zk-${ordinal}`,
    POD_IP: `127.64.0.${ordinal + 1}`,
    ZK_DOMAIN: domain,
    ZK_CONFIG_DIR: configDir,
    ZK_DATA_DIR: dataDir,
    ZK_JVM_FLAGS: '-Xms512m\n-Xmx512m\n-XX:OnOutOfMemoryError=kill -9 %p',
    ZK_SUPER_DIGEST: 'super:digest=',
    ZOOKEEPER_CLASSPATH: '/zk/lib/*',
    ZK_START_RETRY_MAX_SECONDS: '1',
    ...extraEnv,
  };
  return {
    root,
    dataDir,
    run: ({ timeoutMs = 20_000 } = {}) =>
      new Promise((resolve, reject) => {
        execFile('bash', [join(configDir, 'start.sh')], { env, timeout: timeoutMs }, (error, stdout, stderr) => {
          if (error !== null && error.killed !== true) {
            reject(new Error(`start.sh failed: ${error.message}\n${stdout}\n${stderr}`));
            return;
          }
          resolve({ output: stdout, killed: error?.killed === true });
        });
      }),
    chosen: () => readFile(join(dataDir, 'conf', 'zoo.cfg.dynamic.chosen'), 'utf8'),
    answers: (peer, text) => writeFile(join(root, 'answers', peer), text),
    asked: () => readFile(join(root, 'asked'), 'utf8'),
  };
}

async function committedOnVolume(dataDir: string, version: string, text: string): Promise<void> {
  await mkdir(join(dataDir, 'conf'), { recursive: true });
  await writeFile(join(dataDir, 'conf', `zoo.cfg.dynamic.${version}`), text);
}

describe('start.sh', () => {
  it('asks peers over TLS on the secure port in a TLS-only ensemble, and joins with no plain client port', async () => {
    const tlsOnly = { ZK_FOUR_LETTER_WORD_PORT: '2281', ZK_FOUR_LETTER_WORD_TLS: 'true', ZK_TLS_DIR: '/tls', ZK_PLAIN_CLIENT_PORT: '' };
    const zk = await member(3, 3, tlsOnly);
    const secureLine = (ordinal: number): string => `server.${ordinal + 1}=${host(ordinal)}:2888:3888:participant`;
    await zk.answers(host(0), confAnswer(secureLine(0), secureLine(1), secureLine(2)));

    await zk.run();

    expect((await zk.asked()).split('\n')).toEqual([
      '-Dzookeeper.ssl.trustStore.location=/tls/ca.crt',
      '-Dzookeeper.ssl.trustStore.type=PEM',
      '-cp',
      '/zk/lib/*',
      'org.apache.zookeeper.client.FourLetterWordMain',
      host(0),
      '2281',
      'conf',
      'true',
      '',
    ]);
    expect(await zk.chosen()).toBe(`${secureLine(0)}\n${secureLine(1)}\n${secureLine(2)}\nserver.4=${host(3)}:2888:3888:observer\n`);
  });

  it('bootstraps with the initial configuration when nobody answers and the volume is empty', async () => {
    const zk = await member(1);

    const { output } = await zk.run();

    expect(await zk.chosen()).toBe(`${line(0)}\n${line(1)}\n${line(2)}\n`);
    expect(await readFile(join(zk.dataDir, 'data', 'myid'), 'utf8')).toBe('2\n');
    expect(output).toContain('decision: no member answers and the volume is empty; bootstrapping with the initial configuration');
  });

  it('restarts with the newest committed configuration on its volume when nobody answers', async () => {
    const zk = await member(0);
    await committedOnVolume(zk.dataDir, '100000000', `${line(0)}\n${line(1)}\n${line(2)}\n`);
    await committedOnVolume(zk.dataDir, '20000000a', `${line(0)}\n${line(1)}\n${line(2)}\n${line(3)}\n${line(4)}`);
    await committedOnVolume(zk.dataDir, 'next', `${line(0)}\n`);

    const { output } = await zk.run();

    expect(await zk.chosen()).toBe(`${line(0)}\n${line(1)}\n${line(2)}\n${line(3)}\n${line(4)}`);
    expect(output).toContain('starting with the newest committed configuration on the volume, zoo.cfg.dynamic.20000000a');
  });

  it('rejoins with the configuration the ensemble runs with when a member answers and lists it', async () => {
    const zk = await member(2);
    await committedOnVolume(zk.dataDir, '100000000', `${line(0)}\n${line(2)}\n`);
    await zk.answers(host(1), confAnswer(line(0), line(1), line(2)));

    const { output } = await zk.run();

    // ZooKeeper refuses a dynamic file with a version inside: the running configuration's version line stays out.
    expect(await zk.chosen()).toBe(`${line(0)}\n${line(1)}\n${line(2)}\n`);
    expect(output).toContain(`asked ${host(1)} for conf: it serves a configuration`);
    expect(output).toContain('server.3 is in the configuration the ensemble runs with; starting with it as is');
  });

  it('joins a running ensemble as a non-voting observer when it is a new member', async () => {
    const zk = await member(3);
    await zk.answers(host(0), confAnswer(line(0), line(1), line(2)));

    const { output } = await zk.run();

    expect(await zk.chosen()).toBe(`${line(0)}\n${line(1)}\n${line(2)}\n${line(3, 'observer')}\n`);
    expect(output).toContain('server.4 is not in the configuration the ensemble runs with; joining as a non-voting observer');
  });

  it('joins as an observer with the current configuration when it was removed and its volume is stale', async () => {
    const zk = await member(4);
    await committedOnVolume(zk.dataDir, '300000002', `${line(0)}\n${line(1)}\n${line(2)}\n${line(3)}\n${line(4)}\n`);
    // Member 1 is down; member 2 serves the configuration after the scale-down to 3.
    await zk.answers(host(2), confAnswer(line(0), line(1), line(2)));

    await zk.run();

    expect(await zk.chosen()).toBe(`${line(0)}\n${line(1)}\n${line(2)}\n${line(4, 'observer')}\n`);
  });

  it('keeps waiting, never bootstrapping, when it is not an initial member and nobody answers on an empty volume', async () => {
    const zk = await member(3);

    const { output, killed } = await zk.run({ timeoutMs: 4_000 });

    expect(killed).toBe(true);
    expect(existsSync(join(zk.dataDir, 'conf', 'zoo.cfg.dynamic.chosen'))).toBe(false);
    expect(existsSync(join(zk.root, 'server-args'))).toBe(false);
    expect(output).toContain('decision: wait; no member answers, the volume is empty and server.4 is not an initial member');
  });

  it('treats a member that runs but does not serve (no quorum yet) as not answering', async () => {
    const zk = await member(0);
    await zk.answers(host(1), 'This ZooKeeper instance is not currently serving requests\n');

    const { output } = await zk.run();

    expect(output).toContain(`asked ${host(1)} for conf: no configuration in its answer`);
    expect(output).toContain('bootstrapping with the initial configuration');
  });

  it('execs the server in the foreground with the JVM options (spaces kept), superuser digest and the copied zoo.cfg', async () => {
    const zk = await member(0);

    const { output } = await zk.run();

    expect(output.split('\n')[0]).toBe(`zk-oam start: ZooKeeper from ZOOKEEPER_CLASSPATH: classpath /zk/lib/*, java ${join(zk.root, 'bin', 'java')}`);

    const args = (await readFile(join(zk.root, 'server-args'), 'utf8')).trim().split('\n');
    expect(args).toEqual([
      '-Xms512m',
      '-Xmx512m',
      '-XX:OnOutOfMemoryError=kill -9 %p',
      '-Dzookeeper.DigestAuthenticationProvider.superDigest=super:digest=',
      '-cp',
      '/zk/lib/*',
      'org.apache.zookeeper.server.quorum.QuorumPeerMain',
      join(zk.dataDir, 'conf', 'zoo.cfg'),
    ]);
    const zooCfg = await readFile(join(zk.dataDir, 'conf', 'zoo.cfg'), 'utf8');
    expect(zooCfg).toContain(`dataDir=${zk.dataDir}/data\n`);
    expect(zooCfg).toContain(`dynamicConfigFile=${zk.dataDir}/conf/zoo.cfg.dynamic.chosen\n`);
  });

  it('points the client trust store at the mounted client CA when ZK_CLIENT_CA_DIR is set', async () => {
    const zk = await member(0, 3, { ZK_CLIENT_CA_DIR: '/client-ca' });
    await writeFile(join(zk.root, 'config', 'zoo.cfg'), 'ssl.trustStore.location=@CLIENT_CA_DIR@/ca.crt\n');

    await zk.run();

    expect(await readFile(join(zk.dataDir, 'conf', 'zoo.cfg'), 'utf8')).toBe('ssl.trustStore.location=/client-ca/ca.crt\n');
  });

  it('hands the JVM the JAAS file of the mounted SASL Secret, by its path only, when ZK_SASL_DIR is set', async () => {
    const zk = await member(0, 3, { ZK_SASL_DIR: '/sasl' });

    await zk.run();

    const args = (await readFile(join(zk.root, 'server-args'), 'utf8')).trim().split('\n');
    expect(args.slice(0, 5)).toEqual([
      '-Xms512m',
      '-Xmx512m',
      '-XX:OnOutOfMemoryError=kill -9 %p',
      '-Djava.security.auth.login.config=/sasl/jaas.conf',
      '-Dzookeeper.DigestAuthenticationProvider.superDigest=super:digest=',
    ]);
  });
});
