// The image contract shown on real containers: each of the bed's two ZooKeeper images (Debian's package layout, and
// the look-alike of the official image's layout made from Debian's jars) runs the start script the workload controller
// renders for a one-member ensemble, as a kubelet would start it: the ConfigMap mounted read-only, the data volume
// writable, the root read-only, as the image's user, in the host's network on a free loopback address.
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZOOKEEPER_IMAGE_LAYOUTS, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import type { CommandResult } from '../src/controllers/command.js';
import { repoRoot } from '../src/bed/paths.js';
import type { BuiltImage } from '../src/images/build-images.js';
import { ImageStore } from '../src/images/image-store.js';
import { prepareMember, type MemberContainer } from '../src/images/member-container.js';
import { imageConfig } from '../src/images/oci-layout.js';
import { unpackImage, type UnpackedImage } from '../src/images/runc-bundle.js';
import { buildZookeeperImages, ZOOKEEPER_IMAGE_NAMES, type ZookeeperImageName } from '../src/images/zookeeper-images.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../src/wait-for.js';
import { bedCacheDir } from '../src/cache-dir.js';

/** The line each layout's start begins with: where the start script found ZooKeeper, and the classpath it made. */
const FOUND: Record<ZookeeperImageName, RegExp> = {
  'zookeeper-debian': new RegExp(`^zk-oam start: ZooKeeper from Debian's zookeeper package: classpath ${escape(ZOOKEEPER_IMAGE_LAYOUTS.debianClasspath.join(':'))}, java /usr/bin/java$`),
  'zookeeper-release': /^zk-oam start: ZooKeeper from the release directory of (\/apache-zookeeper-[\d.]+-bin)\/bin\/zkServer\.sh on PATH: classpath \/conf:\1\/lib\/\*, java \/usr\/bin\/java$/,
};

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const store = new ImageStore(bedCacheDir(process.env));
let images: BuiltImage<ZookeeperImageName>[] = [];

beforeAll(async () => {
  const started = Date.now();
  images = await buildZookeeperImages({ repo: repoRoot(), store, progress: (line) => console.log(`[images] ${line}`) });
  const built = images.filter((image) => image.built).length;
  console.log(`[images] ZooKeeper images ${built === 0 ? 'warm, all cached' : `${String(built)} built`}: ${String(Math.round((Date.now() - started) / 1000))} s`);
});

function builtImage(name: ZookeeperImageName): BuiltImage<ZookeeperImageName> {
  const built = images.find((candidate) => candidate.name === name);
  if (built === undefined) throw new Error(`${name} was not built`);
  return built;
}

/** The image's user (`uid:gid`, numeric in both images), who owns the data volume as fsGroup would make it writable. */
async function imageUser(built: BuiltImage<ZookeeperImageName>): Promise<{ uid: number; gid: number }> {
  const { user = '' } = await imageConfig(built.layout, built.name);
  const [uid = '', gid = uid] = user.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** The files under `dir`, relative to it, each with its owner. */
async function filesUnder(dir: string): Promise<{ path: string; uid: number }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (path) => ({ path: path.slice(dir.length + 1), uid: (await stat(path)).uid })));
}

describe.each(ZOOKEEPER_IMAGE_NAMES)('%s', (name) => {
  let image: UnpackedImage | undefined;
  let user = { uid: -1, gid: -1 };
  const dirs: string[] = [];

  beforeAll(async () => {
    const built = builtImage(name);
    user = await imageUser(built);
    image = await unpackImage(store, built.layout, name);
  });

  afterAll(async () => {
    await image?.remove();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  function unpacked(): UnpackedImage {
    if (image === undefined) throw new Error(`${name} was not unpacked`);
    return image;
  }

  /** A new member 0, in a directory of its own. */
  async function newMember(): Promise<MemberContainer> {
    const dir = await mkdtemp(join(tmpdir(), 'zk-oam-member-'));
    dirs.push(dir);
    return prepareMember(dir, user);
  }

  describe('started as the member of a one-member ensemble', () => {
    let member: MemberContainer | undefined;
    let output: CommandResult | undefined;
    let srvr = '';
    let ruok = '';

    beforeAll(async () => {
      member = await newMember();
      const container = await unpacked().start(member.run);
      const { podIp } = member;
      try {
        // srvr answers once the member serves (ruok answers imok as soon as the port is open).
        srvr = await waitFor(
          `${name}: srvr on ${podIp}:${String(ZOOKEEPER_PORTS.client)}`,
          () => fourLetterWord(podIp, ZOOKEEPER_PORTS.client, 'srvr', { timeoutMs: 2_000 }),
          (answer) => answer !== '',
          45_000,
          LOCAL_POLL_INTERVAL_MS,
          () => (container.ended() ? new Error(`${name} exited before it served`) : undefined),
        );
        ruok = await fourLetterWord(podIp, ZOOKEEPER_PORTS.client, 'ruok');
      } catch (error) {
        const ended = await container.stop();
        console.log(`[images] ${name}: exited ${String(ended.code)}; its output ended with:\n${(ended.stdout + ended.stderr).slice(-3000)}`);
        throw error;
      }
      output = await container.stop();
      const decisions = output.stdout.split('\n').filter((line) => line.startsWith('zk-oam start:'));
      console.log(`[images] ${name}: served on ${podIp}, stopped (exit ${String(output.code)}); the start script said:\n${decisions.join('\n')}`);
    }, 120_000);

    it('says first which layout it found ZooKeeper in, and the classpath it made of it', () => {
      const [first = ''] = (output?.stdout ?? '').split('\n');
      expect(first).toMatch(FOUND[name]);
    });

    it('answers on its client port: ruok is imok, and srvr says it leads its one-member ensemble', () => {
      expect(ruok).toBe('imok');
      expect(parseSrvr(srvr).mode).toBe('leader');
    });

    it("writes its data on the data volume, as the image's user: myid, the database and the committed membership", async () => {
      const volume = member?.volume ?? '';
      const files = await filesUnder(volume);
      const paths = files.map((file) => file.path);
      expect(await readFile(join(volume, 'data', 'myid'), 'utf8')).toBe('1\n');
      expect(paths).toEqual(expect.arrayContaining(['data/version-2/snapshot.0', expect.stringMatching(/^conf\/zoo\.cfg\.dynamic\.[0-9a-f]+$/)]));
      expect(paths.filter((path) => !path.startsWith('data/') && !path.startsWith('conf/'))).toEqual([]);
      expect(files.filter((file) => file.uid !== user.uid)).toEqual([]);
    });
  });

  it('without its JRE, exits 1 with the one line of the image contract saying java is missing, before anything else', async () => {
    const member = await newMember();
    // An empty directory over the JRE: java on PATH is then a dangling link, as in an image that has none.
    const empty = join(dirname(member.volume), 'empty');
    await mkdir(empty);
    const result = await unpacked().run({ ...member.run, mounts: [...(member.run.mounts ?? []), { source: empty, destination: '/usr/lib/jvm', readOnly: true }] });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^zk-oam start: no java in this image: none on PATH \(.*\) and no \$JAVA_HOME\/bin\/java \(JAVA_HOME=unset\)$/)]);
  });
});
