// Step 3: what to render, decided from observed state, and the render itself; pure. The StatefulSet's size follows
// spec.replicas only at creation or while a scale trait is bound; otherwise a changed spec.replicas is refused, never
// carried out unsafely.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { ROLLING_BINDING_ANNOTATION, SCALE_BINDING_ANNOTATION, type ZookeeperWorkload } from '@zk-oam/apis';
import type { RenderInput } from '../render/input.js';
import { clientsAdmitted } from '../restore/index.js';
import { renderWorkload, type RenderedWorkload } from '../render/render.js';
import { CA_ROTATION_ANNOTATION, decideQuorumTls, QUORUM_TLS_ANNOTATION, type CaRotationStep } from '../tls/index.js';
import { withAnnotations } from './applied-hash.js';
import { INITIAL_MEMBERS_ANNOTATION } from './resources.js';
import { renderInputDigest } from './rendered-hashes.js';
import { refusalMessage, type ScaleRefusal } from './scale-refusal.js';

export interface RenderDecision {
  readonly input: RenderInput;
  /** Set when spec.replicas differs from the StatefulSet and no scale trait is bound. */
  readonly refusal: ScaleRefusal | undefined;
}

export interface RenderDecisionInput {
  readonly workload: ZookeeperWorkload;
  /** The live StatefulSet, undefined before it is created. */
  readonly statefulSet: V1StatefulSet | undefined;
  readonly monitoringServed: boolean;
  /** The member certificate kept for the workload, when spec.tls uses TLS. */
  readonly tls: { readonly fingerprint: string; readonly trustBundleHash: string | undefined } | undefined;
  /** The JAAS Secret's revision, when spec.authentication uses SASL. */
  readonly saslRevision: string | undefined;
  /** The SHA-256 of the client CA's ca.crt, when spec.authentication uses x509. */
  readonly clientCaDigest: string | undefined;
}

function positiveInteger(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9][0-9]*$/.test(text)) return undefined;
  return Number(text);
}

/** A trait is bound while its controller's annotation on the workload names it. */
function traitBound(workload: ZookeeperWorkload, annotation: string): boolean {
  return (workload.metadata.annotations?.[annotation] ?? '') !== '';
}

/** The StatefulSet's size as it runs, undefined before it exists. */
function liveReplicas(statefulSet: V1StatefulSet | undefined, desired: number): number | undefined {
  return statefulSet === undefined ? undefined : (statefulSet.spec?.replicas ?? desired);
}

export function decideRenderInput({ workload, statefulSet, monitoringServed, tls, saslRevision, clientCaDigest }: RenderDecisionInput): RenderDecision {
  const desired = workload.spec.replicas;
  const live = liveReplicas(statefulSet, desired);
  const scaleTraitBound = traitBound(workload, SCALE_BINDING_ANNOTATION);
  const replicas = live === undefined || scaleTraitBound ? desired : live;
  const initialMembers = positiveInteger(statefulSet?.metadata?.annotations?.[INITIAL_MEMBERS_ANNOTATION]) ?? live ?? desired;
  return {
    input: {
      workload,
      replicas,
      initialMembers,
      quorumTls: decideQuorumTls(workload.spec.tls, statefulSet),
      updateStrategy: traitBound(workload, ROLLING_BINDING_ANNOTATION) ? 'OnDelete' : 'RollingUpdate',
      monitoringCrdsPresent: monitoringServed,
      certificateFingerprint: tls?.fingerprint,
      trustBundleHash: tls?.trustBundleHash,
      saslRevision,
      clientCaDigest,
      clientsAdmitted: clientsAdmitted(workload),
    },
    refusal: replicas === desired ? undefined : { from: replicas, to: desired, message: refusalMessage(replicas, desired) },
  };
}

/** The children's render for one reconcile, made when first asked for; `key` is a digest of every input it reads. */
export interface ChildrenRender {
  readonly key: string;
  readonly rendered: () => RenderedWorkload;
}

export function childrenRender(input: RenderInput, caRotation: CaRotationStep | undefined): ChildrenRender {
  const { workload, ...decisions } = input;
  let rendered: RenderedWorkload | undefined;
  return { key: renderInputDigest(workload, JSON.stringify([decisions, caRotation ?? null])), rendered: () => (rendered ??= renderChildren(input, caRotation)) };
}

/**
 * The rendered children; the StatefulSet also records the initial members, fixed for the workload's life, the
 * quorum TLS step its template renders, and the step of a CA rotation under way.
 */
function renderChildren(input: RenderInput, caRotation: CaRotationStep | undefined): RenderedWorkload {
  const rendered = renderWorkload(input);
  return {
    ...rendered,
    statefulSet: withAnnotations(rendered.statefulSet, {
      [INITIAL_MEMBERS_ANNOTATION]: String(input.initialMembers),
      [QUORUM_TLS_ANNOTATION]: input.quorumTls,
      ...(caRotation === undefined ? {} : { [CA_ROTATION_ANNOTATION]: String(caRotation) }),
    }),
  };
}
