// Binds an OAM trait to its workload through the API objects alone: the trait gets a non-controller owner reference to
// the workload (garbage-collected with it) and a finalizer; the workload gets an annotation naming the trait, which the
// workload's own controller reads. Unbinding (the trait is being deleted) removes the annotation, then the finalizer.
//
// # Guarantees
// - Writes only what is missing: a bound trait costs no write per reconcile.
// - Finalizer and owner-reference writes are merge patches conditioned on the resourceVersion read, so a concurrent
//   writer's list entries are never dropped (a 409 surfaces to the caller, whose reconcile is retried).
// - The annotation is written with the caller's field manager and removed only while it still names this trait.
import type { Logger } from 'pino';
import type { KubeClient } from '../kube/client.js';
import { mergePatchObject } from '../apply/patch.js';
import { apiVersionOf, type ResourceType } from '../kube/resource.js';
import { keyOf, type KubeObject, type OwnerReference } from '../kube/object.js';
import { decideBinding, type BindingDecision, type WorkloadReference } from './binding-decision.js';

export interface TraitBindingOptions {
  readonly client: Pick<KubeClient, 'request'>;
  /** The trait controller's field manager. */
  readonly fieldManager: string;
  readonly traitResource: ResourceType;
  readonly workloadResource: ResourceType;
  /** Annotation on the workload naming the bound trait, e.g. `scale.zookeeper.zkoam.dev/trait`. */
  readonly bindingAnnotation: string;
  /** Finalizer on the trait, so unbinding happens before the trait disappears. */
  readonly finalizer: string;
}

export type BindResult = BindingDecision & { readonly wrote: readonly string[] };

export class TraitBinding {
  constructor(private readonly options: TraitBindingOptions) {}

  /**
   * Binds `trait` to `workload` (the object `reference` names, as observed; undefined when absent). Returns the decision
   * and the writes it made; a Problem writes nothing on the workload.
   */
  async bind(trait: KubeObject, reference: WorkloadReference, workload: KubeObject | undefined, log: Logger): Promise<BindResult> {
    const { workloadResource, bindingAnnotation } = this.options;
    const decision = decideBinding({ reference, workloadResource, workload, bindingAnnotation, traitName: trait.metadata.name });
    if (decision.kind === 'Problem') return { ...decision, wrote: [] };
    const wrote: string[] = [];
    if (await this.ensureTraitMetadata(trait, decision.workload)) wrote.push('trait owner reference and finalizer');
    if (decision.workload.metadata.annotations?.[bindingAnnotation] !== trait.metadata.name) {
      await this.patchWorkloadAnnotation(decision.workload, trait.metadata.name);
      wrote.push(`workload annotation ${bindingAnnotation}`);
    }
    if (wrote.length > 0) log.info({ workload: decision.workload.metadata.name, wrote }, 'bound the trait to its workload');
    return { ...decision, wrote };
  }

  /** Whether the trait is being deleted and still carries this controller's finalizer. */
  needsUnbind(trait: KubeObject): boolean {
    return trait.metadata.deletionTimestamp !== undefined && (trait.metadata.finalizers ?? []).includes(this.options.finalizer);
  }

  /** Removes the workload's annotation (when it names this trait), then the trait's finalizer. */
  async unbind(trait: KubeObject, workload: KubeObject | undefined, log: Logger): Promise<void> {
    const { bindingAnnotation, finalizer } = this.options;
    if (workload !== undefined && workload.metadata.annotations?.[bindingAnnotation] === trait.metadata.name) {
      await this.patchWorkloadAnnotation(workload, null);
    }
    const finalizers = trait.metadata.finalizers ?? [];
    if (finalizers.includes(finalizer)) {
      await this.mergePatch(this.options.traitResource, trait, {
        metadata: { resourceVersion: trait.metadata.resourceVersion, finalizers: finalizers.filter((entry) => entry !== finalizer) },
      });
    }
    log.info({ workload: workload?.metadata.name }, 'unbound the trait from its workload');
  }

  private async ensureTraitMetadata(trait: KubeObject, workload: KubeObject): Promise<boolean> {
    const { finalizer, workloadResource } = this.options;
    const owners = trait.metadata.ownerReferences ?? [];
    const finalizers = trait.metadata.finalizers ?? [];
    const hasOwner = owners.some((owner) => owner.uid === workload.metadata.uid);
    const hasFinalizer = finalizers.includes(finalizer);
    if (hasOwner && hasFinalizer) return false;
    const owner: OwnerReference = {
      apiVersion: apiVersionOf(workloadResource),
      kind: workloadResource.kind,
      name: workload.metadata.name,
      uid: workload.metadata.uid ?? '',
    };
    await this.mergePatch(this.options.traitResource, trait, {
      metadata: {
        resourceVersion: trait.metadata.resourceVersion,
        ownerReferences: hasOwner ? owners : [...owners, owner],
        finalizers: hasFinalizer ? finalizers : [...finalizers, finalizer],
      },
    });
    return true;
  }

  /** A merge patch: ownership of the annotation moves to this manager; null removes it. */
  private async patchWorkloadAnnotation(workload: KubeObject, value: string | null): Promise<void> {
    await this.mergePatch(this.options.workloadResource, workload, { metadata: { annotations: { [this.options.bindingAnnotation]: value } } });
  }

  private async mergePatch(resource: ResourceType, object: KubeObject, body: unknown): Promise<void> {
    await mergePatchObject(this.options.client, resource, keyOf(object), body, this.options.fieldManager);
  }
}
