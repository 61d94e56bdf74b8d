// The CA rotation's decision, state by state: each step is taken only once every member runs the one before, a step
// already written is waited on (deciding again writes nothing new), and a CA ZooKeeper could not trust beside the old
// one is refused.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { derivedNames, memberSelectorLabels } from '@zk-oam/apis';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCa } from './ca-secret.js';
import { CA_ROTATION_ANNOTATION, decideCaRotation, describeCaRotation, liveCaRotation, membersRun, rotationStep } from './ca-rotation.js';
import type { SigningCa } from './issue.js';
import { tlsPodAnnotations } from './member-config.js';
import { joinedPem, parsed, trustBundleHash } from './pem.js';
import { issueCaSecretData, issueMemberSecretData } from './secret-data.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const NAMES = derivedNames('zk');

async function ca(commonName: string): Promise<SigningCa> {
  const reading = await readCa(await issueCaSecretData({ commonName, now: NOW }), NOW);
  if (!reading.ok) throw new Error(reading.problem);
  return reading.ca;
}

function member(signing: SigningCa): Promise<Record<string, string>> {
  return issueMemberSecretData({ ca: signing, commonName: 'zk.prod', dnsNames: [NAMES.clientService], validityHours: 24, now: NOW });
}

/** The StatefulSet rendered from `data`, `updated` of its 3 pods on it and ready; `step` recorded when given. */
function statefulSet(data: Record<string, string>, options: { updated?: number; generation?: number; observed?: number; step?: string } = {}): V1StatefulSet {
  const { updated = 3, generation = 2, observed = generation, step } = options;
  const annotations = tlsPodAnnotations(parsed(data['tls.crt'])?.fingerprint256, trustBundleHash(data['ca.crt'] ?? ''));
  return {
    metadata: { name: NAMES.statefulSet, generation, annotations: step === undefined ? {} : { [CA_ROTATION_ANNOTATION]: step } },
    spec: { replicas: 3, selector: { matchLabels: memberSelectorLabels('zk') }, serviceName: NAMES.headlessService, template: { metadata: { annotations } } },
    status: { replicas: 3, observedGeneration: observed, updatedReplicas: updated, readyReplicas: 3 },
  };
}

describe('decideCaRotation', () => {
  let oldCa: SigningCa;
  let newCa: SigningCa;
  /** Members on the old CA alone, then each step's member Secret. */
  let before: Record<string, string>;
  let step1: Record<string, string>;
  let step2: Record<string, string>;
  let step3: Record<string, string>;

  beforeAll(async () => {
    oldCa = await ca('old CA');
    newCa = await ca('new CA');
    before = await member(oldCa);
    step1 = { ...before, 'ca.crt': joinedPem(oldCa.certificatePem, newCa.certificatePem) };
    step2 = { ...(await member(newCa)), 'ca.crt': step1['ca.crt'] ?? '' };
    step3 = { ...step2, 'ca.crt': newCa.certificatePem };
  });

  const decide = (data: Record<string, string>, live: V1StatefulSet | undefined): ReturnType<typeof decideCaRotation> =>
    decideCaRotation({ data, caPem: newCa.certificatePem, statefulSet: live });

  it('has nothing to rotate when the members trust the CA alone and hold its certificate', () => {
    expect(decide(step3, statefulSet(step3))).toEqual({ kind: 'none' });
    expect(decideCaRotation({ data: before, caPem: oldCa.certificatePem, statefulSet: statefulSet(before) })).toEqual({ kind: 'none' });
  });

  it('step 1: trusts the old and the new CA, keeping the certificate, at once (trusting more is safe beside members that do not)', () => {
    expect(decide(before, statefulSet(before, { updated: 1 }))).toEqual({ kind: 'trust', step: 1, caPem: step1['ca.crt'] });
  });

  it('step 2: a certificate of the new CA once every member runs step 1, not before', () => {
    expect(decide(step1, statefulSet(step1))).toEqual({ kind: 'issue', step: 2 });
    expect(decide(step1, statefulSet(step1, { updated: 2 }))).toEqual({ kind: 'wait', step: 1 });
    // The StatefulSet controller has not looked at the latest template yet: its counts are of an older one.
    expect(decide(step1, statefulSet(step1, { generation: 3, observed: 2 }))).toEqual({ kind: 'wait', step: 1 });
    // The StatefulSet (from a cache that lags our write) still renders the Secret as it was before step 1.
    expect(decide(step1, statefulSet(before))).toEqual({ kind: 'wait', step: 1 });
  });

  it('step 3: the new CA alone once every member runs step 2, not before', () => {
    expect(decide(step2, statefulSet(step2))).toEqual({ kind: 'trust', step: 3, caPem: newCa.certificatePem });
    expect(decide(step2, statefulSet(step2, { updated: 0 }))).toEqual({ kind: 'wait', step: 2 });
    expect(decide(step2, statefulSet(step1))).toEqual({ kind: 'wait', step: 2 });
  });

  it('waits on step 3 while the StatefulSet records the rotation and not every member runs it', () => {
    expect(decide(step3, statefulSet(step2, { step: '3' }))).toEqual({ kind: 'wait', step: 3 });
    expect(decide(step3, statefulSet(step3, { step: '3', updated: 2 }))).toEqual({ kind: 'wait', step: 3 });
    expect(decide(step3, statefulSet(step3, { step: '3' }))).toEqual({ kind: 'none' });
  });

  it('is idempotent: deciding again on what a step wrote waits for its roll, and never writes the step twice', () => {
    for (const [written, liveBefore, step] of [
      [step1, before, 1],
      [step2, step1, 2],
      [step3, step2, 3],
    ] as const) {
      expect(decide(written, { ...statefulSet(liveBefore), metadata: { ...statefulSet(liveBefore).metadata, annotations: { [CA_ROTATION_ANNOTATION]: String(step) } } })).toEqual({ kind: 'wait', step });
    }
  });

  it('moves a workload with no StatefulSet yet straight on: no member runs anything', () => {
    expect(decide(step1, undefined)).toEqual({ kind: 'issue', step: 2 });
  });

  it('rotates again from the middle of a rotation: the newest CA joins what the members trust', async () => {
    const third = await ca('third CA');
    const decided = decideCaRotation({ data: step2, caPem: third.certificatePem, statefulSet: statefulSet(step2, { updated: 0 }) });
    expect(decided).toEqual({ kind: 'trust', step: 1, caPem: joinedPem(step2['ca.crt'] ?? '', third.certificatePem) });
  });

  it('refuses a new CA with the subject of one the members trust: ZooKeeper keeps one CA per subject', async () => {
    const twin = await ca('old CA');
    const decided = decideCaRotation({ data: before, caPem: twin.certificatePem, statefulSet: statefulSet(before) });
    expect(decided).toEqual({ kind: 'refuse', problem: expect.stringContaining('holds a new CA with the subject of a CA the members trust (CN=old CA)') as unknown });
  });
});

describe('the rotation around the decision', () => {
  it('reads the step the StatefulSet records, and only a known one', () => {
    const annotated = (value: string): V1StatefulSet => ({ metadata: { annotations: { [CA_ROTATION_ANNOTATION]: value } } });
    expect(liveCaRotation(annotated('2'))).toBe(2);
    expect(liveCaRotation(annotated('7'))).toBeUndefined();
    expect(liveCaRotation(undefined)).toBeUndefined();
  });

  it('counts members running a Secret only when the template carries its content', () => {
    const data = { 'tls.crt': '', 'ca.crt': '' };
    const live: V1StatefulSet = { metadata: { generation: 1 }, spec: { replicas: 1, selector: {}, template: { metadata: { annotations: {} } } }, status: { replicas: 1, observedGeneration: 1, updatedReplicas: 1, readyReplicas: 1 } };
    expect(membersRun(live, data)).toBe(true);
    expect(membersRun(live, { ...data, 'ca.crt': '-----BEGIN CERTIFICATE-----a-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----b-----END CERTIFICATE-----' })).toBe(false);
  });

  it('names each step', () => {
    expect(rotationStep({ kind: 'issue', step: 2 })).toBe(2);
    expect(rotationStep({ kind: 'none' })).toBeUndefined();
    expect(describeCaRotation(2)).toBe('step 2 of 3 (members present a certificate of the new CA, trusting both)');
  });
});
