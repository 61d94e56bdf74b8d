// The workload/trait contract: names, labels and member identity, as every controller reads them.
import { describe, expect, it } from 'vitest';
import {
  derivedNames,
  fourLetterWordEndpoint,
  MEMBER_SELECTOR,
  memberHost,
  memberName,
  memberSelectorLabels,
  memberSelectorOf,
  memberServerName,
  memberReach,
  adminReach,
  memberCaRef,
  myidOfOrdinal,
  myidOfPod,
  ordinalOfMyid,
  ordinalOfPod,
  ordinalOfVolume,
  podOfMember,
  statefulSetNameOf,
  superuserSecretName,
  tlsCaSecretName,
  volumeName,
  workloadLabels,
  workloadOfLabels,
  workloadOfStatefulSet,
} from './contract.js';

describe('the workload/trait contract', () => {
  it('names every object rendered for a workload after it', () => {
    expect(derivedNames('zk')).toStrictEqual({
      statefulSet: 'zk',
      configMap: 'zk-config',
      headlessService: 'zk-headless',
      clientService: 'zk-client',
      podDisruptionBudget: 'zk',
      defaultSuperuserSecret: 'zk-superuser',
      serviceMonitor: 'zk',
      prometheusRule: 'zk',
      tlsSecret: 'zk-tls',
      defaultTlsCaSecret: 'zk-tls-ca',
      saslSecret: 'zk-sasl',
    });
  });

  it('names the members\' StatefulSet after the workload, and finds the workload back from it', () => {
    expect(statefulSetNameOf('zk')).toBe('zk');
    expect(workloadOfStatefulSet(statefulSetNameOf('zk'))).toBe('zk');
    expect(derivedNames('zk').statefulSet).toBe(statefulSetNameOf('zk'));
  });

  it('finds the workload back from the labels of any object rendered for it, and none from other labels', () => {
    expect(workloadOfLabels(workloadLabels('zk'))).toBe('zk');
    expect(workloadOfLabels(memberSelectorLabels('zk'))).toBe('zk');
    expect(workloadOfLabels({ app: 'zk' })).toBeUndefined();
    expect(workloadOfLabels(undefined)).toBeUndefined();
  });

  it('asks four-letter words on the plain port while there is one, else over TLS on the secure port', () => {
    expect(fourLetterWordEndpoint({ client: 'Disabled' })).toStrictEqual({ port: 2181, secure: false });
    expect(fourLetterWordEndpoint({ client: 'Alongside' })).toStrictEqual({ port: 2181, secure: false });
    expect(fourLetterWordEndpoint({ client: 'Only' })).toStrictEqual({ port: 2281, secure: true });
  });

  it('checks a member asked over TLS against its own name under the headless Service', () => {
    expect(memberServerName('zk', 'prod')({ myid: 3 })).toBe('zk-2.zk-headless.prod.svc.cluster.local');
  });

  it('reaches members for four-letter words on the plain port while there is one, trusting the CA on the secure one', async () => {
    const readCa = (ref: { secret: { name: string }; key: string }): Promise<string> => Promise.resolve(`CA from ${ref.secret.name}/${ref.key}`);
    const unread = (): Promise<string> => Promise.reject(new Error('the CA is not needed here'));
    expect(await memberReach('zk', 'prod', { client: 'Alongside' }, unread)).toStrictEqual({ port: 2181, tls: undefined });
    const secure = await memberReach('zk', 'prod', { client: 'Only' }, readCa);
    expect([secure.port, secure.tls?.ca, secure.tls?.serverName({ myid: 1 })]).toEqual([2281, 'CA from zk-tls/ca.crt', 'zk-0.zk-headless.prod.svc.cluster.local']);
  });

  it("opens the superuser's session over TLS whenever there is a secure port, so its credential never travels in plain text", async () => {
    const readCa = (ref: { secret: { name: string }; key: string }): Promise<string> => Promise.resolve(`CA from ${ref.secret.name}/${ref.key}`);
    expect(await adminReach('zk', 'prod', { client: 'Disabled' }, () => Promise.reject(new Error('not needed')))).toStrictEqual({ port: 2181, tls: undefined });
    for (const client of ['Alongside', 'Only'] as const) {
      const reach = await adminReach('zk', 'prod', { client }, readCa);
      expect([reach.port, reach.tls?.ca, reach.tls?.serverName({ myid: 2 })]).toEqual([2281, 'CA from zk-tls/ca.crt', 'zk-1.zk-headless.prod.svc.cluster.local']);
    }
    expect(memberCaRef('zk', 'prod')).toEqual({ secret: { namespace: 'prod', name: 'zk-tls' }, key: 'ca.crt' });
  });

  it("takes the user's CA Secret when the spec names one", () => {
    expect(tlsCaSecretName({ metadata: { name: 'zk' }, spec: {} })).toBe('zk-tls-ca');
    expect(tlsCaSecretName({ metadata: { name: 'zk' }, spec: { tls: { certificates: { caSecretRef: { name: 'ca' } } } } })).toBe('ca');
  });

  it("takes the user's superuser Secret when the spec names one", () => {
    expect(superuserSecretName({ metadata: { name: 'zk' }, spec: {} })).toBe('zk-superuser');
    expect(superuserSecretName({ metadata: { name: 'zk' }, spec: { superuserSecretRef: { name: 'mine' } } })).toBe('mine');
  });

  it('labels pods so that one selector finds every member and another one workload', () => {
    expect(memberSelectorLabels('zk')).toStrictEqual({
      'app.kubernetes.io/name': 'zookeeper',
      'app.kubernetes.io/instance': 'zk',
      'app.kubernetes.io/component': 'server',
    });
    expect(workloadLabels('zk')).toStrictEqual({ ...memberSelectorLabels('zk'), 'app.kubernetes.io/managed-by': 'zk-oam' });
    expect(MEMBER_SELECTOR).toBe('app.kubernetes.io/name=zookeeper,app.kubernetes.io/component=server');
    expect(memberSelectorOf('zk')).toBe('app.kubernetes.io/name=zookeeper,app.kubernetes.io/component=server,app.kubernetes.io/instance=zk');
  });

  it.each([
    [0, 1, 'zk-0'],
    [2, 3, 'zk-2'],
    [254, 255, 'zk-254'],
  ])('runs server myid = ordinal + 1: ordinal %i is myid %i in pod %s', (ordinal, myid, pod) => {
    expect(myidOfOrdinal(ordinal)).toBe(myid);
    expect(ordinalOfMyid(myid)).toBe(ordinal);
    expect(podOfMember('zk', myid)).toBe(pod);
    expect(ordinalOfPod(pod, 'zk')).toBe(ordinal);
    expect(myidOfPod(pod, 'zk')).toBe(myid);
  });

  it.each([
    ['zk-backup', 'zk'],
    ['zk-01', 'zk'],
    ['zk-', 'zk'],
    ['other-0', 'zk'],
    ['zk-main-0', 'zk'],
    ['zk-255', 'zk'],
  ])('does not take %s for a member of StatefulSet %s', (pod, statefulSet) => {
    expect(myidOfPod(pod, statefulSet)).toBeUndefined();
  });

  it("finds a member's data volume by the StatefulSet's claim naming", () => {
    expect(volumeName('zk', 3)).toBe('data-zk-3');
    expect(ordinalOfVolume('data-zk-3', 'zk')).toBe(3);
    expect(ordinalOfVolume('data-zk-main-3', 'zk')).toBeUndefined();
    expect(ordinalOfVolume('zk-3', 'zk')).toBeUndefined();
  });

  it('addresses a member by its stable DNS name under the headless Service', () => {
    expect(memberHost('zk', 'prod', 2)).toBe('zk-2.zk-headless.prod.svc.cluster.local');
  });

  it('names a member one way everywhere', () => {
    expect(memberName({ pod: 'zk-1', myid: 2, ip: '10.0.0.2' })).toBe('zk-1 (myid 2, 10.0.0.2)');
    expect(memberName({ pod: 'zk-1', myid: 2, ip: undefined })).toBe('zk-1 (myid 2)');
    expect(memberName({ pod: 'zk-1', myid: 2 })).toBe('zk-1 (myid 2)');
  });
});
