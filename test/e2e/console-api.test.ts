// The console's REST API on the bed, as two callers would use it: an operator who may edit ensembles in two
// namespaces, and a viewer who may only read one. The console serves two "clusters", two kubeconfig contexts of the
// bed with different namespaces, and has no credentials of its own: every call is made with the caller's token.
// The console runs as users would run it, its bundle (console/dist/main.mjs) as a process, with the bed's NATS.
// No controller runs here: where the test needs a status (members, leader, phase) it writes it as the workload
// controller would, through the status subresource, and the NATS facts it streams are published to the bed's real
// JetStream as a controller publishes them (the apis `createEvent` builder, on the event's subject).
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createEvent, subjectOfEvent, ZOOKEEPER_WORKLOAD, type ZkEvent } from '@zk-oam/apis';
import { KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCrds, stopCleanly, waitFor } from '../src/controllers/index.js';
import { bindRole, call, cleanUpConsole, consoleKubeconfig, createConsoleRoles, serviceAccountToken, SseReader, startConsole, type ConsoleProcess } from './console-support.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const id = Date.now().toString(36);
const east = `console-east-${id}`;
const west = `console-west-${id}`;
const workDir = mkdtempSync(join(tmpdir(), 'console-api-'));
const admin = new PooledKubeConfig();
admin.loadFromFile(bed.kubeconfig);
const adminClient = new KubeClient(admin);
let consoleProcess: ConsoleProcess | undefined;
let base = '';
let operator = '';
let viewer = '';
let roles = { edit: '', view: '' };

const ensembles = (cluster: string, namespace: string) => `/api/v1/clusters/${cluster}/namespaces/${namespace}/zookeepers`;
const ensemble = (cluster: string, namespace: string, name: string) => `${ensembles(cluster, namespace)}/${name}`;
/** An Event about the east workload `zk`, as a controller would record it. */
async function recordEvent(reason: string, message: string): Promise<void> {
  const now = new Date(new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
  await admin.makeApiClient(CoreV1Api).createNamespacedEvent({
    namespace: east,
    body: {
      metadata: { name: `zk.${reason.toLowerCase()}.${id}` },
      involvedObject: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name: 'zk', namespace: east },
      type: 'Normal',
      reason,
      message,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      source: { component: 'console-test' },
    },
  });
}

/** A LeaderChanged fact about the workload `name` in `namespace`, as the workload controller publishes it. */
const leaderChanged = (namespace: string, name: string, to: string): ZkEvent =>
  createEvent({
    type: 'LeaderChanged',
    source: 'zk-oam-workload',
    subject: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, namespace, name },
    data: { to },
  });

/** Publishes to the bed's JetStream, waiting for the stream (the console's bus ensures it once connected) to store it. */
async function publish(subject: string, payload: string): Promise<void> {
  const connection = await connect({ servers: bed.nats.url, user: bed.nats.user, pass: bed.nats.password });
  try {
    await waitFor(`JetStream to store a message on ${subject}`, () => jetstream(connection).publish(subject, payload).then(() => true, () => false), (stored) => stored, 30_000, 250);
  } finally {
    await connection.close();
  }
}

const publishFact = (event: ZkEvent): Promise<void> => publish(subjectOfEvent(event), JSON.stringify(event));
const isFact = (event: { event: string }): boolean => event.event === 'fact';

const smallSpec = { replicas: 3, storage: { size: '64Mi', storageClassName: 'bed-local', reclaimPolicy: 'Delete' } };

describe('the console REST API on the bed', () => {
  beforeAll(async () => {
    await installCrds(bed);
    const core = admin.makeApiClient(CoreV1Api);
    for (const namespace of [east, west]) await core.createNamespace({ body: { metadata: { name: namespace } } });
    roles = await createConsoleRoles(admin, `console-${id}`);
    operator = await serviceAccountToken(admin, east, 'operator');
    viewer = await serviceAccountToken(admin, east, 'viewer');
    await bindRole(admin, east, roles.edit, { namespace: east, name: 'operator' });
    await bindRole(admin, west, roles.edit, { namespace: east, name: 'operator' });
    await bindRole(admin, east, roles.view, { namespace: east, name: 'viewer' });
    consoleProcess = await startConsole(bed, consoleKubeconfig(bed, join(workDir, 'kubeconfig'), { east, west }));
    base = consoleProcess.base;
    // The RBAC authorizer reads bindings from a watch cache: wait until both callers' rights are seen.
    const listed = (cluster: string, token: string) => async () => (await call(base, 'GET', `/api/v1/clusters/${cluster}/zookeepers`, token)).code;
    await waitFor('the operator to list the west cluster', listed('west', operator), (code) => code === 200, 30_000, 250);
    await waitFor('the viewer to list the east cluster', listed('east', viewer), (code) => code === 200, 30_000, 250);
  });

  afterAll(async () => {
    await cleanUpConsole(admin, { console: consoleProcess, roles, workDir });
    const core = admin.makeApiClient(CoreV1Api);
    for (const namespace of [east, west]) await core.deleteNamespace({ name: namespace });
  });

  it('refuses every call without a bearer token with 401, and passes the API server\'s 401 on for a token it does not know', async () => {
    for (const path of ['/api/v1/clusters', `/api/v1/clusters/east/zookeepers`, `${ensemble('east', east, 'zk')}/stream`]) {
      const answer = await call(base, 'GET', path, undefined);
      expect(answer.code, path).toBe(401);
      expect(answer.body).toMatchObject({ error: { reason: 'Unauthorized' } });
    }
    expect((await call(base, 'POST', `${ensemble('east', east, 'zk')}/scale`, undefined, { replicas: 5 })).code).toBe(401);
    expect((await call(base, 'GET', '/api/v1/clusters/east/zookeepers', 'not-a-token')).code).toBe(401);
  });

  it('serves its OpenAPI document and lists the two clusters, one per context, each with its namespace', async () => {
    const document = await fetch(`${base}/api/v1/openapi.json`);
    expect(document.status).toBe(200);
    expect(await document.json()).toMatchObject({ openapi: '3.0.3', paths: { '/api/v1/clusters': { get: {} } } });
    expect(await call(base, 'GET', '/api/v1/clusters', viewer)).toStrictEqual({
      code: 200,
      body: { clusters: [{ name: 'east', namespace: east }, { name: 'west', namespace: west }] },
    });
    expect((await call(base, 'GET', '/api/v1/clusters/north/zookeepers', viewer)).code).toBe(404);
  });

  it('creates ensembles in each cluster and refuses a bad request with 400 naming the field', async () => {
    const created = await call(base, 'POST', ensembles('east', east), operator, { metadata: { name: 'zk' }, spec: smallSpec });
    expect(created).toMatchObject({ code: 201, body: { cluster: 'east', namespace: east, name: 'zk', phase: 'Pending', members: { desired: 3, ready: 0 } } });
    expect((await call(base, 'POST', ensembles('west', west), operator, { metadata: { name: 'zk-west' }, spec: smallSpec })).code).toBe(201);

    const invalid = await call(base, 'POST', ensembles('east', east), operator, { metadata: { name: 'zk-bad' }, spec: { ...smallSpec, replicas: 0 } });
    expect(invalid.code).toBe(400);
    expect(invalid.body).toMatchObject({ error: { reason: 'BadRequest', fields: [{ path: 'spec.replicas' }] } });
    // A field the schema does not know: the API server's strict field validation names it.
    const unknown = await call(base, 'POST', ensembles('east', east), operator, { metadata: { name: 'zk-bad' }, spec: { ...smallSpec, replcias: 5 } });
    expect(unknown.code).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('replcias');
  });

  it('lists each cluster\'s ensembles in its namespace when the caller may not list every namespace, or in ?namespace=', async () => {
    const eastList = await call(base, 'GET', '/api/v1/clusters/east/zookeepers', operator);
    expect(eastList).toMatchObject({ code: 200, body: { cluster: 'east', namespaces: [east] } });
    expect((eastList.body as { items: { name: string }[] }).items.map((item) => item.name)).toStrictEqual(['zk']);
    const westList = await call(base, 'GET', `/api/v1/clusters/west/zookeepers?namespace=${west}`, operator);
    expect((westList.body as { items: { name: string }[] }).items.map((item) => item.name)).toStrictEqual(['zk-west']);
    // The viewer may read the east namespace only: the west cluster's namespace is refused as the API server refuses it.
    const refused = await call(base, 'GET', '/api/v1/clusters/west/zookeepers', viewer);
    expect(refused.code).toBe(403);
    expect(refused.body).toMatchObject({ error: { reason: 'Forbidden', message: expect.stringContaining(`system:serviceaccount:${east}:viewer`) } });
  });

  it('shows one ensemble\'s members, leader, conditions, committed config and recent Events from its status', async () => {
    const path = `/apis/${ZOOKEEPER_WORKLOAD.apiVersion}/namespaces/${east}/${ZOOKEEPER_WORKLOAD.plural}/zk/status`;
    await adminClient.request('PATCH', path, {
      contentType: 'application/merge-patch+json',
      body: {
        status: {
          phase: 'Running',
          replicas: 3,
          readyReplicas: 3,
          leader: 'zk-2',
          configVersion: '100000003',
          clientEndpoint: { service: 'zk-client', connectString: `zk-client.${east}.svc:2181` },
          members: [
            { pod: 'zk-0', myid: 1, role: 'follower', synced: true, voting: true },
            { pod: 'zk-1', myid: 2, role: 'follower', synced: true, voting: true },
            { pod: 'zk-2', myid: 3, role: 'leader', synced: true, voting: true },
          ],
          conditions: [{ type: 'Ready', status: 'True', reason: 'QuorumFormed', message: '3 of 3 serving', lastTransitionTime: '2026-11-25T10:00:00Z' }],
        },
      },
    });
    await recordEvent('LeaderElected', 'zk-2 leads');
    const info = await call(base, 'GET', ensemble('east', east, 'zk'), viewer);
    expect(info.code).toBe(200);
    expect(info.body).toMatchObject({
      phase: 'Running',
      leader: 'zk-2',
      members: { desired: 3, ready: 3 },
      memberStatus: [{ pod: 'zk-0', role: 'follower', synced: true }, { pod: 'zk-1' }, { pod: 'zk-2', role: 'leader' }],
      conditions: [{ type: 'Ready', status: 'True' }],
      committedConfig: { version: '100000003', members: 3, connectString: `zk-client.${east}.svc:2181` },
      events: [{ reason: 'LeaderElected', message: 'zk-2 leads', reporter: 'console-test' }],
      traits: [],
    });
    expect((await call(base, 'GET', ensemble('east', east, 'absent'), viewer)).code).toBe(404);
  });

  it('streams an ensemble\'s changes and its Events as Server-Sent Events, from watches made as the caller', async () => {
    const response = await fetch(`${base}${ensemble('east', east, 'zk')}/stream`, { headers: { Authorization: `Bearer ${viewer}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = new SseReader(response);
    try {
      expect(await stream.next()).toMatchObject({ event: 'snapshot', data: { phase: 'Running', leader: 'zk-2' } });
      // The Events already recorded come first, for a timeline.
      expect(await stream.until((event) => event.event === 'event')).toMatchObject({ data: { reason: 'LeaderElected', message: 'zk-2 leads' } });
      const path = `/apis/${ZOOKEEPER_WORKLOAD.apiVersion}/namespaces/${east}/${ZOOKEEPER_WORKLOAD.plural}/zk/status`;
      await adminClient.request('PATCH', path, { contentType: 'application/merge-patch+json', body: { status: { phase: 'Degraded', readyReplicas: 2 } } });
      const change = await stream.until((event) => event.event === 'MODIFIED');
      expect(change.data).toMatchObject({ phase: 'Degraded', members: { desired: 3, ready: 2 } });
      await recordEvent('MemberLost', 'zk-1 stopped answering');
      expect(await stream.until((event) => event.event === 'event')).toMatchObject({ data: { reason: 'MemberLost', reporter: 'console-test' } });
    } finally {
      await stream.close();
    }
    const refused = await call(base, 'GET', `${ensemble('west', west, 'zk-west')}/stream`, viewer);
    expect(refused.code).toBe(403);
  });

  it('streams a cluster\'s ensembles, then their changes, over the namespaces its list covers', async () => {
    const response = await fetch(`${base}/api/v1/clusters/east/stream`, { headers: { Authorization: `Bearer ${operator}` } });
    expect(response.status).toBe(200);
    const stream = new SseReader(response);
    try {
      expect(await stream.next()).toStrictEqual({ event: 'scope', data: { cluster: 'east', namespaces: [east] } });
      expect(await stream.next()).toMatchObject({ event: 'ADDED', data: { cluster: 'east', namespace: east, name: 'zk', phase: 'Degraded' } });
      const path = `/apis/${ZOOKEEPER_WORKLOAD.apiVersion}/namespaces/${east}/${ZOOKEEPER_WORKLOAD.plural}/zk/status`;
      await adminClient.request('PATCH', path, { contentType: 'application/merge-patch+json', body: { status: { phase: 'Running', readyReplicas: 3 } } });
      expect(await stream.until((event) => event.event === 'MODIFIED')).toMatchObject({ data: { name: 'zk', phase: 'Running', members: { ready: 3 } } });
    } finally {
      await stream.close();
    }
    expect((await call(base, 'GET', '/api/v1/clusters/west/stream', viewer)).code).toBe(403);
  });

  it("streams an ensemble's NATS facts as `fact` frames, the stored ones first, then live ones; none of another ensemble, none malformed", async () => {
    const stored = leaderChanged(east, 'zk', 'zk-1');
    await publishFact(leaderChanged(east, 'zk-other', 'zk-other-0'));
    await publishFact(stored);
    const stream = new SseReader(await fetch(`${base}${ensemble('east', east, 'zk')}/stream`, { headers: { Authorization: `Bearer ${viewer}` } }));
    try {
      expect(await stream.until(isFact)).toStrictEqual({ event: 'fact', data: stored });
      const live = leaderChanged(east, 'zk', 'zk-2');
      await publish(`zk.${east}.zk.LeaderChanged`, JSON.stringify({ ...live, id: 'not-a-uuid' }));
      await publish(`zk.${east}.zk.LeaderChanged`, '{not json');
      await publishFact(leaderChanged(east, 'zk-other', 'zk-other-1'));
      await publishFact(live);
      // The next fact frame is the live one: the other ensemble's and the malformed ones were never sent.
      expect(await stream.until(isFact)).toStrictEqual({ event: 'fact', data: live });
    } finally {
      await stream.close();
    }
    const logged = (line: string) => async () => (await readFile(consoleProcess?.logFile ?? '', 'utf8')).includes(line);
    await waitFor('the malformed fact logged', logged('dropping an invalid event'), (found) => found, 10_000, 250);
    await waitFor('the fact that is not JSON logged', logged('dropping an event payload that is not JSON'), (found) => found, 10_000, 250);
  });

  it("streams the live NATS facts of the ensembles in a cluster stream's namespaces, not of others", async () => {
    const stream = new SseReader(await fetch(`${base}/api/v1/clusters/east/stream`, { headers: { Authorization: `Bearer ${operator}` } }));
    try {
      expect(await stream.next()).toMatchObject({ event: 'scope', data: { namespaces: [east] } });
      // Live facts only, from when its follower started, which the stream does not announce: publish a pair (another
      // namespace's first) until one arrives. Had the other namespace's been forwarded, it would have come first.
      const arrived = stream.until(isFact);
      const published: string[] = [];
      let settled = false;
      const settle = (): void => {
        settled = true;
      };
      arrived.then(settle, settle);
      for (let round = 0; !settled && round < 60; round++) {
        const live = leaderChanged(east, 'zk-other', `zk-other-${String(round)}`);
        published.push(live.id);
        await publishFact(leaderChanged(west, 'zk-west', 'zk-west-0'));
        await publishFact(live);
        await Promise.race([arrived, sleep(500)]);
      }
      const frame = await arrived;
      expect(frame).toMatchObject({ event: 'fact', data: { type: 'LeaderChanged', subject: { namespace: east, name: 'zk-other' } } });
      expect(published).toContain((frame.data as ZkEvent).id);
    } finally {
      await stream.close();
    }
  });

  it('scales through the scale trait, created if absent; a read-only caller gets 403; a bad size gets 400', async () => {
    const scale = `${ensemble('east', east, 'zk')}/scale`;
    const forbidden = await call(base, 'POST', scale, viewer, { replicas: 5 });
    expect(forbidden.code).toBe(403);
    expect(forbidden.body).toMatchObject({ error: { reason: 'Forbidden', message: expect.stringMatching(/zookeeperscales.* is forbidden: User "system:serviceaccount:.*:viewer" cannot create/) } });
    expect((await call(base, 'POST', scale, operator, { replicas: 'five' })).body).toMatchObject({ error: { fields: [{ path: 'replicas' }] } });

    expect(await call(base, 'POST', scale, operator, { replicas: 5 })).toMatchObject({
      code: 202,
      body: { replicas: 5, trait: { kind: 'ZookeeperScale', name: 'zk', created: true } },
    });
    expect(await call(base, 'POST', scale, operator, { replicas: 3 })).toMatchObject({ code: 202, body: { trait: { created: false } } });
    const info = await call(base, 'GET', ensemble('east', east, 'zk'), viewer);
    expect(info.body).toMatchObject({ traits: [{ kind: 'ZookeeperScale', name: 'zk', spec: { replicas: 3, workloadRef: { name: 'zk' } } }] });
    expect((await call(base, 'POST', `${ensemble('east', east, 'absent')}/scale`, operator, { replicas: 3 })).code).toBe(404);
  });

  it('restarts through the rolling trait\'s restart trigger, created if absent', async () => {
    const restart = `${ensemble('east', east, 'zk')}/restart`;
    expect((await call(base, 'POST', restart, viewer)).code).toBe(403);
    expect(await call(base, 'POST', restart, operator, { trigger: 'first' })).toMatchObject({
      code: 202,
      body: { restartTrigger: 'first', trait: { kind: 'ZookeeperRolling', name: 'zk', created: true } },
    });
    const again = await call(base, 'POST', restart, operator);
    expect(again).toMatchObject({ code: 202, body: { trait: { created: false } } });
    const trigger = (again.body as { restartTrigger: string }).restartTrigger;
    expect(Number.isNaN(Date.parse(trigger))).toBe(false);
    const list = await call(base, 'GET', '/api/v1/clusters/east/zookeepers', viewer);
    expect(list.body).toMatchObject({ items: [{ name: 'zk', traits: [{ kind: 'ZookeeperScale' }, { kind: 'ZookeeperRolling', name: 'zk' }] }] });
    const info = await call(base, 'GET', ensemble('east', east, 'zk'), viewer);
    expect(info.body).toMatchObject({ traits: [{ kind: 'ZookeeperScale' }, { kind: 'ZookeeperRolling', spec: { restartTrigger: trigger } }] });
  });

  it('updates with PUT and PATCH, validating the resulting spec, and refuses the viewer', async () => {
    const path = ensemble('east', east, 'zk');
    const put = await call(base, 'PUT', path, operator, { metadata: { labels: { team: 'a' } }, spec: { ...smallSpec, image: { tag: '3.9.3' } } });
    expect(put.code).toBe(200);
    const patched = await call(base, 'PATCH', path, operator, { metadata: { labels: { tier: 'gold' } }, spec: { config: { tickTime: 3000 } } });
    expect(patched.code).toBe(200);
    const stored = (await adminClient.request('GET', `/apis/${ZOOKEEPER_WORKLOAD.apiVersion}/namespaces/${east}/${ZOOKEEPER_WORKLOAD.plural}/zk`)) as {
      metadata: { labels: Record<string, string> };
      spec: { image: { tag: string }; config: { tickTime: number } };
    };
    expect([stored.metadata.labels, stored.spec.image.tag, stored.spec.config.tickTime]).toStrictEqual([{ team: 'a', tier: 'gold' }, '3.9.3', 3000]);

    const invalid = await call(base, 'PATCH', path, operator, { spec: { config: { tickTime: 'slow' } } });
    expect(invalid).toMatchObject({ code: 400, body: { error: { fields: [{ path: 'spec.config.tickTime' }] } } });
    const stale = await call(base, 'PUT', path, operator, { metadata: { resourceVersion: '1' }, spec: smallSpec });
    expect(stale.code).toBe(409);
    expect((await call(base, 'PATCH', path, viewer, { spec: { replicas: 5 } })).code).toBe(403);
  });

  it('deletes an ensemble, which ends its stream with DELETED; the viewer may not delete', async () => {
    const path = ensemble('west', west, 'zk-west');
    expect((await call(base, 'DELETE', ensemble('east', east, 'zk'), viewer)).code).toBe(403);
    const stream = new SseReader(await fetch(`${base}${path}/stream`, { headers: { Authorization: `Bearer ${operator}` } }));
    expect(await stream.next()).toMatchObject({ event: 'snapshot', data: { cluster: 'west', name: 'zk-west' } });
    expect(await call(base, 'DELETE', path, operator)).toMatchObject({ code: 202, body: { cluster: 'west', namespace: west, name: 'zk-west', deleted: true } });
    expect(await stream.until((event) => event.event === 'DELETED')).toMatchObject({ data: { name: 'zk-west' } });
    expect(await stream.next()).toBeUndefined();
    expect((await call(base, 'GET', path, operator)).code).toBe(404);
  });

  it('stops on SIGTERM with exit code 0, with a stream still open', async () => {
    const stream = new SseReader(await fetch(`${base}${ensemble('east', east, 'zk')}/stream`, { headers: { Authorization: `Bearer ${viewer}` } }));
    expect(await stream.next()).toMatchObject({ event: 'snapshot' });
    await stopCleanly(consoleProcess);
    // A fact already on its way (the ensemble's leader changing) may still arrive; then the stream ends.
    expect((await stream.remaining()).map((event) => event.event)).not.toContain('snapshot');
  });
});
