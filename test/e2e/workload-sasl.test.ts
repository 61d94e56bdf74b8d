// Client authentication with SASL DIGEST-MD5 on the bed, real ZooKeeper 3.8 and its own Java client: an ensemble
// with the users of a Secret becomes Ready; a user creates a znode with the ACL sasl:<user>:cdrwa, and neither an
// unauthenticated client, nor one with a wrong password, nor another user can create under it; a changed password
// restarts the members onto it through the rolling trait, the leader last (at 3 members, before the scale: three JVM
// restarts, not five); the scale trait grows the ensemble 3 -> 5 (reconfig as the digest superuser) and the new members
// know the users, the changed password too; no password in Events, status, ConfigMaps or the controllers' logs. Then a
// users Secret that is missing, or holds a password a JAAS file cannot carry: a condition naming the Secret, and no
// pods; the Secret's creation is seen through the controller's watch on it, not a later look.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { derivedNames, memberSelectorOf, SASL_REVISION_ANNOTATION, SASL_SECRET_KEYS, ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runZkCli } from '../src/zookeeper-jvm/index.js';
import { bedWorkloadSpec, condition, eventsAbout, eventSentences, isReady, memberPodSource, PodHistory } from '../src/controllers/index.js';
import { RollingClient, rollingCondition } from './rolling-fixtures.js';
import { appsApi, RollScenario, useRollingController } from './rolling-scenario.js';
import { useScaleController, waitFor, waitScaled } from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const suite = useScaleController(bed, { namespacePrefix: 'wl-sasl' });
const { client, traits, namespace } = suite;
const rollingTraits = new RollingClient(bed);
const rollingController = useRollingController(bed);
const name = 'zks';
const names = derivedNames(name);
const USERS_SECRET = 'zk-users';
const ENSEMBLE_TIMEOUT_MS = 420_000;
const apps = appsApi(bed);
/** Random, so that finding one anywhere it must not be is a real leak, never a coincidence. */
const passwords = { alice: `alice-${randomBytes(12).toString('hex')}`, bob: `bob-${randomBytes(12).toString('hex')}`, aliceNext: `alice2-${randomBytes(12).toString('hex')}` };

async function memberPods(): Promise<V1Pod[]> {
  return (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(name) })).items;
}

function healthy(workload: ZookeeperWorkload, size: number): boolean {
  const status = workload.status;
  return isReady(workload) && status?.leader !== undefined && status.members?.length === size && status.members.every((member) => member.synced);
}

/** A JAAS file with the Client section ZooKeeper's Java client logs in with; none for an unauthenticated client. */
async function clientJaas(dir: string, user: string, password: string): Promise<string> {
  const file = join(dir, `${user}-${password.slice(-4)}.jaas`);
  await writeFile(file, `Client {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  username="${user}"\n  password="${password}";\n};\n`);
  return file;
}

/** zkCli with the JAAS file given (a Client section), or unauthenticated. */
function zkCli(jaas: string | undefined, server: string, ...command: string[]): Promise<{ ok: boolean; output: string }> {
  return runZkCli(bed.resolvConf, jaas === undefined ? [] : [`-Djava.security.auth.login.config=${jaas}`], server, ...command);
}

describe('an ensemble with SASL users', () => {
  let dir: string;
  let servers: string;
  const jaas = { alice: '', bob: '', wrong: '', aliceNext: '' };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zk-oam-sasl-'));
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: USERS_SECRET }, stringData: { alice: passwords.alice, bob: passwords.bob } } });
    await client.create(namespace, name, bedWorkloadSpec({ authentication: { sasl: { usersSecretRef: { name: USERS_SECRET } } } }));
    jaas.alice = await clientJaas(dir, 'alice', passwords.alice);
    jaas.bob = await clientJaas(dir, 'bob', passwords.bob);
    jaas.wrong = await clientJaas(dir, 'alice', 'not-the-password');
    jaas.aliceNext = await clientJaas(dir, 'alice', passwords.aliceNext);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await client.delete(namespace, name);
  });

  it('becomes Ready, with the JAAS file in a Secret it owns, mounted, and the users nowhere in its ConfigMap', async () => {
    const started = Date.now();
    const workload = await waitFor('the SASL ensemble Ready with 3 synced members', () => client.get(namespace, name), (seen) => healthy(seen, 3), ENSEMBLE_TIMEOUT_MS);
    console.log(`SASL ensemble Ready ${String(Math.round((Date.now() - started) / 1000))} s after creation`);
    const secret = await client.core.readNamespacedSecret({ namespace, name: names.saslSecret });
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ZookeeperWorkload', name, uid: workload.metadata.uid, controller: true });
    const jaasText = Buffer.from(secret.data?.[SASL_SECRET_KEYS.jaas] ?? '', 'base64').toString('utf8');
    expect(jaasText).toContain(`user_alice="${passwords.alice}"`);
    const configMap = await client.core.readNamespacedConfigMap({ namespace, name: names.configMap });
    expect(configMap.data?.['zoo.cfg']).toContain('authProvider.sasl=org.apache.zookeeper.server.auth.SASLAuthenticationProvider');
    const pods = await memberPods();
    servers = pods.map((pod) => `${pod.status?.podIP ?? ''}:${String(ZOOKEEPER_PORTS.client)}`).join(',');
    for (const pod of pods) {
      expect(pod.metadata?.annotations?.[SASL_REVISION_ANNOTATION]).toBe(secret.metadata?.resourceVersion);
    }
  }, ENSEMBLE_TIMEOUT_MS + 30_000);

  it("lets a user create a znode with the ACL sasl:<user>:cdrwa; no one else creates under it (ZooKeeper's Java client)", async () => {
    const created = await zkCli(jaas.alice, servers, 'create', '/owned', 'alice-data', 'sasl:alice:cdrwa');
    expect(created.output).toContain('state:SaslAuthenticated');
    expect(created.output).toContain('Created /owned');
    expect((await zkCli(jaas.alice, servers, 'getAcl', '/owned')).output).toMatch(/'sasl,'alice\s*\n: cdrwa/);

    const anonymous = await zkCli(undefined, servers, 'create', '/owned/anonymous', 'x');
    expect(anonymous).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission : /owned/anonymous') as unknown });
    const wrong = await zkCli(jaas.wrong, servers, 'create', '/owned/wrong', 'x');
    expect(wrong.ok).toBe(false);
    expect(wrong.output).toContain('state:AuthFailed');
    expect(wrong.output).not.toContain('Created /owned/wrong');
    const otherUser = await zkCli(jaas.bob, servers, 'create', '/owned/bob', 'x');
    // The refusal is the ACL's, to an authenticated user: bob's SASL exchange ran and did not fail, and the client sends
    // no request before it ends. Its SaslAuthenticated event is printed by another thread, which zkCli's exit on the
    // refusal can beat (CI8).
    expect(otherUser.output).toContain('Client will use DIGEST-MD5 as SASL mechanism');
    expect(otherUser.output).not.toContain('AuthFailed');
    expect(otherUser).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission : /owned/bob') as unknown });

    expect((await zkCli(jaas.alice, servers, 'create', '/owned/alice', 'x')).output).toContain('Created /owned/alice');
    expect((await zkCli(jaas.alice, servers, 'ls', '/owned')).output).toContain('[alice]');
  });

  it('restarts the members onto a changed password through the rolling trait, the leader last; the old password then fails, the new one works', async () => {
    await rollingTraits.create(namespace, 'roll', name);
    const scenario = new RollScenario({ client, traits: rollingTraits, namespace, workload: name, trait: 'roll', members: 3 });
    await waitFor('the rolling trait bound and idle', () => scenario.trait(), (trait) => rollingCondition(trait, 'Bound')?.status === 'True' && trait.status?.phase === 'Idle', 60_000);
    const leader = (await scenario.waitHealthy()).status?.leader ?? '';
    const before = (await apps.readNamespacedStatefulSet({ namespace, name: names.statefulSet })).spec?.template.metadata?.annotations?.[SASL_REVISION_ANNOTATION];
    const history = new PodHistory(memberPodSource(client, namespace, name), 3);
    await history.start();
    const started = new Date();

    await client.core.patchNamespacedSecret({ namespace, name: USERS_SECRET, body: [{ op: 'replace', path: '/data/alice', value: Buffer.from(passwords.aliceNext).toString('base64') }] });

    const revision = await waitFor(
      'the StatefulSet template on the new JAAS Secret',
      async () => (await apps.readNamespacedStatefulSet({ namespace, name: names.statefulSet })).spec?.template.metadata?.annotations?.[SASL_REVISION_ANNOTATION],
      (seen) => seen !== undefined && seen !== before,
      60_000,
    );
    await scenario.waitCompleted('the roll onto the changed password to complete', started);
    await scenario.waitHealthy();
    await history.stop();
    console.log(`3 members restarted onto the changed password, leader last, ${String(Math.round((Date.now() - started.getTime()) / 1000))} s after the users Secret changed`);
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    expect(history.mostDown).toBe(1);
    const pods = await memberPods();
    expect(pods.map((pod) => pod.metadata?.annotations?.[SASL_REVISION_ANNOTATION])).toEqual(Array.from({ length: 3 }, () => revision));

    const secret = await client.core.readNamespacedSecret({ namespace, name: names.saslSecret });
    expect(secret.metadata?.resourceVersion).toBe(revision);
    expect(Buffer.from(secret.data?.[SASL_SECRET_KEYS.jaas] ?? '', 'base64').toString('utf8')).toContain(`user_alice="${passwords.aliceNext}"`);
    const notes = eventSentences(await eventsAbout(client, namespace, name));
    expect(notes).toContain(`Updated Secret ${names.saslSecret} (the members' JAAS file for 2 SASL user(s) of Secret ${USERS_SECRET})`);
    const all = pods.map((pod) => `${pod.status?.podIP ?? ''}:${String(ZOOKEEPER_PORTS.client)}`).join(',');
    const stale = await zkCli(jaas.alice, all, 'create', '/owned/stale', 'x');
    expect(stale.ok).toBe(false);
    expect(stale.output).toContain('state:AuthFailed');
    const renewed = await zkCli(jaas.aliceNext, all, 'create', '/owned/renewed', 'x');
    expect(renewed.output).toContain('Created /owned/renewed');
    await rollingTraits.delete(namespace, 'roll');
  }, ENSEMBLE_TIMEOUT_MS + 60_000);

  it('grows 3 -> 5 with the scale trait (reconfig as the digest superuser); the new members know the users, alice by her changed password', async () => {
    const started = Date.now();
    await traits.create(namespace, 'size', { workloadRef: { name }, replicas: 5 });
    await waitScaled(traits, { namespace, trait: 'size', listPods: memberPods }, 5);
    console.log(`SASL ensemble scaled 3 -> 5 in ${String(Math.round((Date.now() - started) / 1000))} s`);
    await waitFor('the workload Ready at 5', () => client.get(namespace, name), (seen) => healthy(seen, 5), 120_000);
    const joined = (await memberPods()).filter((pod) => ['3', '4'].includes(pod.metadata?.name?.split('-').pop() ?? ''));
    expect(joined).toHaveLength(2);
    for (const pod of joined) {
      const server = `${pod.status?.podIP ?? ''}:${String(ZOOKEEPER_PORTS.client)}`;
      expect((await zkCli(jaas.aliceNext, server, 'get', '/owned')).output).toContain('alice-data');
      expect((await zkCli(undefined, server, 'get', '/owned')).output).toContain('Insufficient permission : /owned');
    }
  }, 420_000);

  it('writes no password to Events, status, ConfigMaps, the StatefulSet or the controllers\' logs', async () => {
    const secrets = Object.values(passwords);
    const events = JSON.stringify(await eventsAbout(client, namespace, name));
    const workload = JSON.stringify((await client.get(namespace, name)).status);
    const configMaps = JSON.stringify((await client.core.listNamespacedConfigMap({ namespace })).items);
    const statefulSet = JSON.stringify(await apps.readNamespacedStatefulSet({ namespace, name: names.statefulSet }));
    const [workloadLog, scaleLog, rollingLog] = await Promise.all(
      [suite.controller(), suite.scaleController(), rollingController()].map((controller) => readFile(controller.logFile, 'utf8')),
    );
    expect(workloadLog?.length).toBeGreaterThan(0);
    for (const [where, text] of Object.entries({ events, workload, configMaps, statefulSet, workloadLog, scaleLog, rollingLog })) {
      for (const password of secrets) {
        expect({ where, leaked: (text ?? '').includes(password) || (text ?? '').includes(Buffer.from(password).toString('base64')) }).toEqual({ where, leaked: false });
      }
    }
  });
});

describe('a workload whose SASL users Secret is unusable', () => {
  const broken = 'zk-bad-users';
  const secretName = 'bad-users';

  afterAll(async () => {
    await client.delete(namespace, broken);
  });

  it('gets Ready=False naming the Secret when it does not exist, then the user whose password a JAAS file cannot carry; no pods', async () => {
    await client.create(namespace, broken, bedWorkloadSpec({ authentication: { sasl: { usersSecretRef: { name: secretName } } } }));
    const missing = await waitFor('Ready=False AuthenticationSecretInvalid', () => client.get(namespace, broken), (seen) => condition(seen, 'Ready')?.reason === 'AuthenticationSecretInvalid', 60_000);
    const missingMessage = `SASL users Secret ${secretName} named in spec.authentication.sasl.usersSecretRef does not exist`;
    expect(condition(missing, 'Ready')).toMatchObject({ status: 'False', message: missingMessage });
    // The Event is recorded beside the status write, not before it: on a loaded machine it can be listed a moment later.
    const warnings = await waitFor('the Warning Event', () => eventsAbout(client, namespace, broken), (events) => events.some((event) => event.type === 'Warning'), 30_000);
    expect(warnings.filter((event) => event.type === 'Warning').map((event) => [event.reason, event.note])).toContainEqual(['AuthenticationSecretInvalid', missingMessage]);

    const quoted = `pa"ss-${randomBytes(6).toString('hex')}`;
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: secretName }, stringData: { carol: quoted } } });
    // The controller would look again by itself only after 5 minutes (WATCHED_SECRET_RETRY_MS); the watch on the
    // Secret brings it back within a second or two, and 20 s leaves a loaded machine ten times that.
    const unusable = await waitFor(
      "the condition naming the unusable password, through the watch on the Secret's creation",
      () => client.get(namespace, broken),
      (seen) => condition(seen, 'Ready')?.message?.includes('carol') === true,
      20_000,
    );
    expect(condition(unusable, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'AuthenticationSecretInvalid',
      message: `SASL users Secret ${secretName} has an unusable password for user "carol": it holds a double quote, a backslash, "\${", a line break or another control character, which a JAAS file cannot carry`,
    });
    expect(JSON.stringify(await eventsAbout(client, namespace, broken))).not.toContain(quoted);
    expect((await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(broken) })).items).toEqual([]);
    await expect(client.core.readNamespacedSecret({ namespace, name: derivedNames(broken).saslSecret })).rejects.toThrow();
  }, 120_000);
});
