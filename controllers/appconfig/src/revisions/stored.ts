// Reading ControllerRevisions from the informer cache: a Component's own (its label and its controller owner), the
// Component each holds, and the revision names ApplicationConfigurations pin.
import { applicationConfigurationSchema, componentSchema, type Component } from '@zk-oam/apis';
import type { KubeObject, Lister } from '@zk-oam/runtime';
import { z } from 'zod';
import { REVISION_COMPONENT_LABEL, type StoredRevision } from './plan.js';

const controllerRevisionSchema = z.looseObject({
  metadata: z.looseObject({
    name: z.string(),
    labels: z.record(z.string(), z.string()).optional(),
    ownerReferences: z.array(z.looseObject({ uid: z.string(), controller: z.boolean().optional() })).optional(),
  }),
  revision: z.number().int(),
  data: z.unknown(),
});

interface ReadRevision extends StoredRevision {
  /** The uid of its controller owner. */
  readonly ownerUid: string | undefined;
  /** The Component its label names. */
  readonly of: string | undefined;
}

function stored(raw: KubeObject): ReadRevision | undefined {
  const revision = controllerRevisionSchema.safeParse(raw).data;
  if (revision === undefined) return undefined;
  return {
    name: revision.metadata.name,
    revision: revision.revision,
    component: componentSchema.safeParse(revision.data).data,
    ownerUid: revision.metadata.ownerReferences?.find((owner) => owner.controller === true)?.uid,
    of: revision.metadata.labels?.[REVISION_COMPONENT_LABEL],
  };
}

/** The revisions this Component controls; one of a deleted Component of the same name is not its. */
export function revisionsOf(revisions: Lister<KubeObject>, component: Component): StoredRevision[] {
  const { name, namespace, uid } = component.metadata;
  return revisions
    .list({ ...(namespace === undefined ? {} : { namespace }), labels: { [REVISION_COMPONENT_LABEL]: name } })
    .flatMap((raw) => stored(raw) ?? [])
    .filter((revision) => revision.ownerUid === uid);
}

/** The Components the named revisions of the namespace hold, by revision name; one missing or unreadable is left out. */
export function revisionComponents(revisions: Lister<KubeObject>, namespace: string, names: Iterable<string>): Map<string, Component> {
  const found = new Map<string, Component>();
  for (const name of names) {
    const raw = revisions.get({ namespace, name });
    const revision = raw === undefined ? undefined : stored(raw);
    if (revision?.of !== undefined && revision.component !== undefined) found.set(name, revision.component);
  }
  return found;
}

/** The revision names the ApplicationConfigurations of the namespace pin with revisionName. */
export function pinnedRevisions(appConfigs: Lister<KubeObject>, namespace: string): Set<string> {
  return new Set(
    appConfigs
      .list({ namespace })
      .flatMap((raw) => applicationConfigurationSchema.safeParse(raw).data?.spec.components ?? [])
      .flatMap((entry) => (entry.revisionName === undefined ? [] : [entry.revisionName])),
  );
}
