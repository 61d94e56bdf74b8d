// Unit tests of the render decisions: replicas only follow spec.replicas at creation or with a bound scale trait.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { ROLLING_BINDING_ANNOTATION, SCALE_BINDING_ANNOTATION } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { INITIAL_MEMBERS_ANNOTATION } from './resources.js';
import { decideRenderInput } from './render-decisions.js';

function statefulSet(replicas: number, initialMembers?: number): V1StatefulSet {
  return {
    metadata: { name: 'zk', annotations: initialMembers === undefined ? {} : { [INITIAL_MEMBERS_ANNOTATION]: String(initialMembers) } },
    spec: { replicas, selector: {}, template: {} },
  };
}

const five = withSpec(minimalWorkload(), (spec) => ({ ...spec, replicas: 5 }));
const annotated = (annotations: Record<string, string>) => ({ ...five, metadata: { ...five.metadata, annotations } });

describe('decideRenderInput', () => {
  it('takes spec.replicas as size and initial members when the StatefulSet does not exist yet', () => {
    const decision = decideRenderInput({ workload: five, statefulSet: undefined, monitoringServed: false, tls: undefined, saslRevision: undefined, clientCaDigest: undefined });
    expect(decision.input).toMatchObject({ replicas: 5, initialMembers: 5, updateStrategy: 'RollingUpdate', monitoringCrdsPresent: false });
    expect(decision.refusal).toBeUndefined();
  });

  it('refuses a changed spec.replicas without a scale trait, keeping the live size', () => {
    const decision = decideRenderInput({ workload: five, statefulSet: statefulSet(3, 3), monitoringServed: true, tls: undefined, saslRevision: undefined, clientCaDigest: undefined });
    expect(decision.input.replicas).toBe(3);
    expect(decision.refusal).toEqual({
      from: 3,
      to: 5,
      message:
        'spec.replicas changed from 3 to 5; membership changes need a ZookeeperScale trait (scale.zookeeper.zkoam.dev) bound to this workload; kept 3',
    });
  });

  it('follows spec.replicas while a scale trait is bound, keeping the initial members of the StatefulSet', () => {
    const decision = decideRenderInput({ workload: annotated({ [SCALE_BINDING_ANNOTATION]: 'grow' }), statefulSet: statefulSet(3, 3), monitoringServed: false, tls: undefined, saslRevision: undefined, clientCaDigest: undefined });
    expect(decision.input).toMatchObject({ replicas: 5, initialMembers: 3 });
    expect(decision.refusal).toBeUndefined();
  });

  it('switches the StatefulSet to OnDelete while a rolling trait is bound', () => {
    const decision = decideRenderInput({ workload: annotated({ [ROLLING_BINDING_ANNOTATION]: 'roll' }), statefulSet: undefined, monitoringServed: false, tls: undefined, saslRevision: undefined, clientCaDigest: undefined });
    expect(decision.input.updateStrategy).toBe('OnDelete');
  });

  it('falls back to the live size for the initial members when the annotation is missing or malformed', () => {
    const live = statefulSet(5);
    live.metadata = { name: 'zk', annotations: { [INITIAL_MEMBERS_ANNOTATION]: 'three' } };
    expect(decideRenderInput({ workload: five, statefulSet: live, monitoringServed: false, tls: undefined, saslRevision: undefined, clientCaDigest: undefined }).input.initialMembers).toBe(5);
  });
});
