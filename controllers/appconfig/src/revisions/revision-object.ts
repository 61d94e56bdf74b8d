// The ControllerRevision of a Component revision, as v0.3.3 writes it: the Component in data, its name in a label,
// the Component as controller owner (so it goes with the Component). Pure.
import { OAM_COMPONENT, type Component } from '@zk-oam/apis';
import { MissingUidError } from '../render/identity.js';
import { REVISION_COMPONENT_LABEL, type RevisionRef } from './plan.js';

export function revisionObject(component: Component, revision: RevisionRef): Record<string, unknown> {
  const { name, namespace, uid, labels, annotations } = component.metadata;
  if (uid === undefined) throw new MissingUidError(`Component ${name}`);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revision.name,
      namespace,
      labels: { [REVISION_COMPONENT_LABEL]: name },
      ownerReferences: [{ apiVersion: OAM_COMPONENT.apiVersion, kind: OAM_COMPONENT.kind, name, uid, controller: true, blockOwnerDeletion: true }],
    },
    revision: revision.revision,
    data: {
      apiVersion: OAM_COMPONENT.apiVersion,
      kind: OAM_COMPONENT.kind,
      metadata: { name, namespace, uid, ...(labels === undefined ? {} : { labels }), ...(annotations === undefined ? {} : { annotations }) },
      spec: component.spec,
    },
  };
}
