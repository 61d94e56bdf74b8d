// Each member's zxid lag in the console's info, on the bed: a real ensemble, the real workload controller (its bundle,
// as its ServiceAccount, with the bed's NATS) answering the console's NATS request from its latest look, and the console
// asking only for a caller whose own read of the workload succeeded. A subscriber of our own on the observation subjects
// sees every request the console makes. With the workload controller stopped, the info still answers, without lags.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { observationSubject, OBSERVATION_SUBJECT_PREFIX, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedWorkloadSpec, isReady, stopCleanly, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { ZnodeClient } from '../src/ensemble-probe/znode-client.js';
import { bindRole, call, cleanUpConsole, consoleKubeconfig, createConsoleRoles, serviceAccountToken, startConsole, type ConsoleProcess } from './console-support.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const suite = useWorkloadController(bed, { namespacePrefix: 'console-lag' });
const { namespace, client } = suite;
const NAME = 'zk-lag';
const READY_TIMEOUT_MS = 420_000;
const workDir = mkdtempSync(join(tmpdir(), 'console-zxid-lag-'));
const admin = new PooledKubeConfig();
admin.loadFromFile(bed.kubeconfig);
let consoleProcess: ConsoleProcess | undefined;
let nats: NatsConnection | undefined;
let base = '';
let reader = '';
let stranger = '';
let roles = { edit: '', view: '' };
/** The subject of every request seen on the observation subjects since the test began. */
const requests: string[] = [];

interface MemberLag {
  pod: string;
  role: string;
  zxid?: string;
  zxidLag: { kind: string; transactions?: number; reason?: string };
}
interface LagView {
  zxid: { available: boolean; observedAt?: string; reason?: string };
}
type Info = LagView & { memberStatus: MemberLag[] };
type Members = LagView & { members: MemberLag[] };

const info = `/api/v1/clusters/bed/namespaces/${namespace}/zookeepers/${NAME}`;

async function infoAs(token: string): Promise<{ code: number; body: Info }> {
  const answer = await call(base, 'GET', info, token);
  return { code: answer.code, body: answer.body as Info };
}

/**
 * A few writes, so that every member holds a transaction of the leader's epoch: until its first write after an
 * election, a follower still reports the zxid of the epoch before (0x0 in a new ensemble, seen on this bed), whose lag
 * is an older epoch rather than a number.
 */
async function writeSome(): Promise<void> {
  const pods = await client.core.listNamespacedPod({ namespace });
  const connectString = pods.items.flatMap((pod) => (pod.status?.podIP === undefined ? [] : [`${pod.status.podIP}:${String(ZOOKEEPER_PORTS.client)}`])).join(',');
  const zk = await ZnodeClient.connect(connectString);
  try {
    await zk.ensure('/zxid-lag');
    for (let write = 0; write < 5; write += 1) await zk.createSequential('/zxid-lag/w-', String(write));
  } finally {
    zk.close();
  }
}

/** Every member has a lag in transactions (the workload controller has looked since each member applied a write). */
const everyLagKnown = (body: Info): boolean =>
  body.zxid.available && body.memberStatus.length === 3 && body.memberStatus.every((member) => member.zxidLag.kind === 'behind');

describe("each member's zxid lag in the console, from the workload controller over NATS", () => {
  beforeAll(async () => {
    roles = await createConsoleRoles(admin, `console-lag-${Date.now().toString(36)}`);
    reader = await serviceAccountToken(admin, namespace, 'reader');
    stranger = await serviceAccountToken(admin, namespace, 'stranger');
    await bindRole(admin, namespace, roles.view, { namespace, name: 'reader' });
    consoleProcess = await startConsole(bed, consoleKubeconfig(bed, join(workDir, 'kubeconfig'), { bed: namespace }));
    base = consoleProcess.base;
    nats = await connect({ servers: bed.nats.url, user: bed.nats.user, pass: bed.nats.password });
    // A callback subscription counts each message as the client reads it, so after a flush (a round trip to the
    // server) every request the server routed before it is counted.
    nats.subscribe(`${OBSERVATION_SUBJECT_PREFIX}.>`, {
      callback: (_error, message) => {
        requests.push(message.subject);
      },
    });
    await client.create(namespace, NAME, bedWorkloadSpec());
    await waitFor(`${NAME} Ready`, () => client.get(namespace, NAME), isReady, READY_TIMEOUT_MS);
    await writeSome();
    // The RBAC authorizer reads bindings from a watch cache: wait until the reader's right is seen.
    await waitFor('the reader to read the ensemble', async () => (await infoAs(reader)).code, (code) => code === 200, 30_000, 250);
  });

  afterAll(async () => {
    await nats?.close();
    await cleanUpConsole(admin, { console: consoleProcess, roles, workDir });
  });

  it("gives every member of a real ensemble its lag behind the leader, the leader's 0, with the time of the look", async () => {
    const { body } = await waitFor('a lag for every member', () => infoAs(reader), (answer) => answer.code === 200 && everyLagKnown(answer.body), 60_000, 1_000);
    expect(Number.isNaN(Date.parse(body.zxid.observedAt ?? ''))).toBe(false);
    for (const member of body.memberStatus) {
      expect(Number.isInteger(member.zxidLag.transactions), member.pod).toBe(true);
      expect(member.zxidLag.transactions, member.pod).toBeGreaterThanOrEqual(0);
      expect(member.zxid, member.pod).toMatch(/^0x[0-9a-f]+$/);
    }
    const leaders = body.memberStatus.filter((member) => member.role === 'leader');
    expect(leaders).toHaveLength(1);
    expect(leaders[0]?.zxidLag).toStrictEqual({ kind: 'behind', transactions: 0 });

    // The endpoint the page polls gives the same members and lags.
    const polled = await call(base, 'GET', `${info}/members`, reader);
    expect(polled.code).toBe(200);
    expect((polled.body as Members).members.map((member) => member.pod).sort()).toStrictEqual(body.memberStatus.map((member) => member.pod).sort());
  });

  it('refuses a caller who may not read the workload with 403, and asks the workload controller nothing for them', async () => {
    await nats?.flush();
    const before = requests.length;
    expect((await infoAs(stranger)).code).toBe(403);
    expect((await call(base, 'GET', `${info}/members`, stranger)).code).toBe(403);
    // Then one request for the reader, which shows that our subscriber sees the console's requests: once it is counted,
    // so is any the console made before it.
    expect((await call(base, 'GET', `${info}/members`, reader)).code).toBe(200);
    await nats?.flush();
    expect(requests.slice(before)).toStrictEqual([observationSubject(namespace, NAME)]);
  });

  it('still answers the info with the workload controller stopped, saying the lag is unavailable and why', async () => {
    await stopCleanly(suite.controller());
    const { code, body } = await infoAs(reader);
    expect(code).toBe(200);
    expect(body.zxid.available).toBe(false);
    expect(body.zxid.reason).toMatch(/workload controller/);
    expect(body.memberStatus).toHaveLength(3);
    for (const member of body.memberStatus) expect(member.zxidLag).toStrictEqual({ kind: 'unknown', reason: body.zxid.reason });
  });
});
