// Which quorum TLS step is rendered: a new workload starts at the spec's, a live one moves one step at a time, and only
// once every member runs the step before.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { derivedNames, memberSelectorLabels } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { decideQuorumTls, describeQuorumTls, everyMemberUpdated, liveQuorumTls, QUORUM_TLS_ANNOTATION } from './quorum-steps.js';

function statefulSet(step: string | undefined, rollout: { generation?: number; observed?: number; updated?: number; ready?: number } = {}): V1StatefulSet {
  const { generation = 4, observed = generation, updated = 3, ready = 3 } = rollout;
  return {
    metadata: { name: derivedNames('zk').statefulSet, generation, annotations: step === undefined ? {} : { [QUORUM_TLS_ANNOTATION]: step } },
    spec: { replicas: 3, selector: { matchLabels: memberSelectorLabels('zk') }, serviceName: derivedNames('zk').headlessService, template: {} },
    status: { replicas: 3, observedGeneration: observed, updatedReplicas: updated, readyReplicas: ready },
  };
}

const on = { quorum: true };
const off = { quorum: false };

describe('decideQuorumTls', () => {
  it('renders a new workload at the spec\'s step', () => {
    expect(decideQuorumTls(on, undefined)).toBe('Tls');
    expect(decideQuorumTls(off, undefined)).toBe('Plain');
  });

  it('starts a move from plain text at once: accepting TLS is safe beside members that do not', () => {
    expect(decideQuorumTls(on, statefulSet('Plain', { updated: 1, ready: 2 }))).toBe('PlainAcceptingTls');
  });

  it('takes the next step only once every member runs the current one and is ready', () => {
    expect(decideQuorumTls(on, statefulSet('PlainAcceptingTls'))).toBe('TlsAcceptingPlain');
    expect(decideQuorumTls(on, statefulSet('TlsAcceptingPlain'))).toBe('Tls');
    expect(decideQuorumTls(on, statefulSet('PlainAcceptingTls', { updated: 2 }))).toBe('PlainAcceptingTls');
    expect(decideQuorumTls(on, statefulSet('TlsAcceptingPlain', { ready: 2 }))).toBe('TlsAcceptingPlain');
    // The StatefulSet controller has not looked at the latest template yet: its counts are of an older one.
    expect(decideQuorumTls(on, statefulSet('PlainAcceptingTls', { generation: 5, observed: 4 }))).toBe('PlainAcceptingTls');
  });

  it('stays at Tls and at Plain', () => {
    expect(decideQuorumTls(on, statefulSet('Tls'))).toBe('Tls');
    expect(decideQuorumTls(off, statefulSet('Plain'))).toBe('Plain');
  });

  it('never jumps back from a step of the move (the CRD refuses turning quorum TLS off)', () => {
    expect(decideQuorumTls(off, statefulSet('TlsAcceptingPlain'))).toBe('TlsAcceptingPlain');
    expect(decideQuorumTls(off, statefulSet('Tls'))).toBe('Tls');
  });

  it('reads a StatefulSet applied before steps were recorded as running what the spec says', () => {
    expect(liveQuorumTls(statefulSet(undefined), on)).toBe('Tls');
    expect(liveQuorumTls(statefulSet(undefined), off)).toBe('Plain');
    expect(liveQuorumTls(statefulSet('garbage'), off)).toBe('Plain');
  });
});

describe('everyMemberUpdated', () => {
  it('needs a status of the current generation with every replica updated and ready', () => {
    expect(everyMemberUpdated(statefulSet('Tls'))).toBe(true);
    expect(everyMemberUpdated({ ...statefulSet('Tls'), status: undefined })).toBe(false);
    expect(everyMemberUpdated(statefulSet('Tls', { updated: 2 }))).toBe(false);
  });
});

describe('describeQuorumTls', () => {
  it('numbers the steps of the move and says what members do', () => {
    expect(describeQuorumTls('PlainAcceptingTls')).toBe('step 1 of 3 (PlainAcceptingTls: members connect to each other in plain text and accept TLS too)');
    expect(describeQuorumTls('Tls')).toBe('step 3 of 3 (Tls: members talk TLS only)');
  });
});
