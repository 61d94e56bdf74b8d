// The bed agent's container runtime on real runc (test/src/containers/, and the agent's ContainerProcess with its runc
// launcher), on the bed's Debian ZooKeeper image: a container started with a pod-like spec, an exec probe, SIGTERM
// within the grace period, SIGKILL after it, a restart after an exit, and nothing left behind (containers, directories,
// mounts), also after an agent that died without stopping its containers.
import { closeSync, existsSync, openSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../src/bed/paths.js';
import { isAlive } from '../src/bed/reap.js';
import { startContainer, stopContainer, type StartedContainer } from '../src/containers/container-run.js';
import { ImageBundles, type ImageBundle } from '../src/containers/image-bundles.js';
import { removeLeftoverContainers } from '../src/containers/leftovers.js';
import { Runc } from '../src/containers/runc.js';
import type { RunOptions } from '../src/containers/runtime-spec.js';
import { ContainerProcess } from '../src/agent/container-process.js';
import { runcLauncher } from '../src/agent/runc-launcher.js';
import { ImageStore } from '../src/images/image-store.js';
import { buildZookeeperImages } from '../src/images/zookeeper-images.js';
import { waitForValue } from '../src/wait-for.js';
import { bedCacheDir } from '../src/cache-dir.js';

const log = pino({ level: 'silent' });
const store = new ImageStore(bedCacheDir(process.env));
let dir = '';
let runc = new Runc('');
let image: ImageBundle | undefined;
let containers = '';

beforeAll(async () => {
  const built = (await buildZookeeperImages({ repo: repoRoot(), store, progress: (line) => console.log(`[images] ${line}`) })).find((candidate) => candidate.name === 'zookeeper-debian');
  if (built === undefined) throw new Error('zookeeper-debian was not built');
  const started = Date.now();
  image = await new ImageBundles(store).get(built.layout, built.name);
  console.log(`[runtime] zookeeper-debian unpacked (or found unpacked) in ${String(Date.now() - started)} ms`);
  dir = await mkdtemp(join(tmpdir(), 'zk-oam-runtime-'));
  runc = new Runc(join(dir, 'runc'));
  containers = join(dir, 'containers');
});

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

function unpacked(): ImageBundle {
  if (image === undefined) throw new Error('the image was not unpacked');
  return image;
}

/** A container of the image, its stdout and stderr in `<dir>/<id>.log`. */
async function start(id: string, run: RunOptions): Promise<StartedContainer> {
  const output = openSync(join(dir, `${id}.log`), 'a');
  try {
    return await startContainer(runc, { id, dir: join(containers, id), image: unpacked(), run, stdout: output, stderr: output });
  } finally {
    closeSync(output);
  }
}

const output = (id: string): Promise<string> => readFile(join(dir, `${id}.log`), 'utf8');

/** A first process that ends on SIGTERM: bash as pid 1 ignores it unless it traps it. */
const untilTerm = ['bash', '-c', "trap 'echo terminated; exit 0' TERM; echo running; sleep infinity & wait"];

describe('a container of the bed runtime', () => {
  it('runs as the pod says: user and groups, working directory, hostname, env over the image’s, volumes at their mount paths, a read-only root', async () => {
    const volume = join(dir, 'volume');
    const config = join(dir, 'config');
    await mkdir(volume);
    await chmod(volume, 0o777);
    await mkdir(config);
    await writeFile(join(config, 'zoo.cfg'), 'tickTime=2000\n');
    const script = [
      'echo "user $(id -u) $(id -g) $(id -G)"',
      'echo "cwd $(pwd)"',
      'echo "hostname $(cat /proc/sys/kernel/hostname)"',
      'echo "env $GREETING $PATH"',
      'echo "config $(cat /config/zoo.cfg)"',
      'echo written > /data/file && echo "data writable"',
      'touch /probe 2>/dev/null || echo "root read-only"',
    ].join('; ');
    const began = Date.now();
    const container = await start('pod-like', {
      args: ['bash', '-c', script],
      env: { GREETING: 'hi' },
      user: { uid: 1000, gid: 1000, additionalGids: [2000] },
      cwd: '/data',
      hostname: 'zk-0',
      mounts: [
        { source: volume, destination: '/data', readOnly: false },
        { source: config, destination: '/config', readOnly: true },
      ],
    });
    console.log(`[runtime] runc container started in ${String(Date.now() - began)} ms`);

    expect(await container.exited).toEqual({ exitCode: 0 });
    expect((await output('pod-like')).trim().split('\n')).toEqual([
      'user 1000 1000 1000 2000',
      'cwd /data',
      'hostname zk-0',
      'env hi /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      'config tickTime=2000',
      'data writable',
      'root read-only',
    ]);
    expect(await readFile(join(volume, 'file'), 'utf8')).toBe('written\n');
  });

  it('gives a writable root a layer of its own: what one container writes is in neither the image nor the next container', async () => {
    const first = await start('writes-root', { args: ['bash', '-c', 'echo mine > /tmp/zk-oam-written && cat /tmp/zk-oam-written'], writableRoot: true, mounts: [{ source: dir, destination: '/new-mount-point', readOnly: true }] });
    expect(await first.exited).toEqual({ exitCode: 0 });
    expect(await output('writes-root')).toBe('mine\n');
    expect(existsSync(join(unpacked().rootfs, 'tmp', 'zk-oam-written'))).toBe(false);
    // runc makes missing mount points in the root it is given: the container's layer, not the shared image.
    expect(existsSync(join(unpacked().rootfs, 'new-mount-point'))).toBe(false);

    const second = await start('reads-root', { args: ['test', '-e', '/tmp/zk-oam-written'], writableRoot: true });
    expect(await second.exited).toEqual({ exitCode: 1 });
  });

  it('runs an exec probe as the container’s process, and kills one that outlives its timeout inside the container', async () => {
    const container = await start('exec', { args: untilTerm, env: { GREETING: 'hi' }, user: { uid: 1000, gid: 1000 } });

    expect(await container.exec(['bash', '-c', 'echo "$GREETING $(id -u)"; exit 3'], 10_000)).toEqual({ exitCode: 3, output: 'hi 1000' });
    expect(await container.exec(['sleep', '60'], 500)).toMatchObject({ exitCode: null });
    const processes = await container.exec(['bash', '-c', 'for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline; echo; done'], 10_000);
    expect(processes.output).not.toContain('sleep 60');

    expect(await stopContainer(container, 10_000)).toEqual({ killed: false });
  });

  it('stops a container that ends on SIGTERM within the grace period', async () => {
    const container = await start('term', { args: untilTerm });
    await waitForValue('the container to run', async () => ((await output('term')).includes('running') ? true : undefined), 10_000, 50);

    const began = Date.now();
    expect(await stopContainer(container, 20_000)).toEqual({ killed: false });

    expect(Date.now() - began).toBeLessThan(10_000);
    expect(await container.exited).toEqual({ exitCode: 0 });
    expect(await output('term')).toContain('terminated');
  });

  it('kills a container that ignores SIGTERM once the grace period is over', async () => {
    const container = await start('stubborn', { args: ['bash', '-c', "trap '' TERM; echo trapped; while true; do sleep 0.1; done"] });
    await waitForValue('the container to ignore SIGTERM', async () => ((await output('stubborn')).includes('trapped') ? true : undefined), 10_000, 50);

    const began = Date.now();
    expect(await stopContainer(container, 1_000)).toEqual({ killed: true });

    expect(Date.now() - began).toBeGreaterThanOrEqual(1_000);
    expect(await container.exited).toEqual({ exitCode: 137, signal: 'SIGKILL' });
    expect(isAlive(container.pid)).toBe(false);
  });

  it('is started again, as a new container, after it exits (ContainerProcess with the runc launcher)', async () => {
    const logFile = join(dir, 'restarting.log');
    const ids = new Set<string>();
    const supervised: ContainerProcess = new ContainerProcess(
      runcLauncher({ runc, containersDir: containers, name: 'restarting', image: unpacked(), run: { args: ['bash', '-c', 'echo started; exit 3'] }, logFile }),
      'Always',
      log,
      {
        onChange: () => {
          const { id } = supervised.snapshot();
          if (id !== undefined) ids.add(id);
        },
        onStarted: async () => undefined,
        onExited: async () => undefined,
      },
    );
    supervised.start();

    await waitForValue('a restart', async () => (supervised.snapshot().restartCount >= 1 && (await readFile(logFile, 'utf8')).startsWith('started\nstarted\n') ? true : undefined), 20_000, 100);
    await supervised.stop(1_000);

    expect(supervised.snapshot().lastTerminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect([...ids].slice(0, 2)).toEqual(['restarting_0', 'restarting_1']);
  });

  it('leaves no container, container directory or mount behind once its containers have stopped', async () => {
    expect(await runc.list()).toEqual([]);
    expect(await readdir(containers)).toEqual([]);
    expect((await readFile('/proc/self/mountinfo', 'utf8')).split('\n').filter((line) => line.includes(dir))).toEqual([]);
  });

  it('removes the containers an agent that died left running: killed, deleted, their directories gone', async () => {
    const left = await start('left-behind', { args: untilTerm });
    expect((await runc.list()).map((container) => container.id)).toEqual(['left-behind']);

    await removeLeftoverContainers(runc, containers, log);

    await left.exited;
    expect(isAlive(left.pid)).toBe(false);
    expect(await runc.list()).toEqual([]);
    expect(await readdir(containers)).toEqual([]);
  });
});
