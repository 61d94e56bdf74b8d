// What the controllers that watch the members' pods and the workloads' StatefulSets keep of them: one set of fields per
// kind between them all. In one process (the manager) their informers then share one parse and one cached object per
// event (the runtime's ReflectorPool), where a set of its own per controller cost a parse and a cached object each (a
// pod event was parsed three times over). Each controller reads its part, and one that filters updates compares only
// that part (the runtime's keptFieldsChangedIn). The runtime's keepFields makes a transform of each.

/** Fields an informer keeps besides an object's identity metadata: its annotations, and whole values at these paths. */
export interface CachedFieldSet {
  readonly annotations?: boolean;
  readonly paths?: readonly (readonly string[])[];
}

/**
 * Of a member pod: its IP (where a member is reached), its conditions (readiness) and its annotations (the SASL
 * revision the znode controller waits for).
 */
export const MEMBER_POD_FIELDS: CachedFieldSet = {
  annotations: true,
  paths: [
    ['status', 'podIP'],
    ['status', 'conditions'],
  ],
};

/**
 * Of a workload's StatefulSet: its annotations (applied hash, initial members, TLS steps), its size and selector, the
 * pod template's annotations (the member Secret content the members were last rendered with) and the counts that say
 * a rollout is done; never the rest of the template, most of the object.
 */
export const STATEFUL_SET_FIELDS: CachedFieldSet = {
  annotations: true,
  paths: [
    ['spec', 'replicas'],
    ['spec', 'selector'],
    ['spec', 'template', 'metadata', 'annotations'],
    ...['currentRevision', 'updateRevision', 'observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas'].map((field) => ['status', field]),
  ],
};
