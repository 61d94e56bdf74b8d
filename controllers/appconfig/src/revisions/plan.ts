// Component revisions as oam-kubernetes-runtime v0.3.3 keeps them: a ControllerRevision `<component>-v<N>` holding the
// Component each time its spec changes, the newest named in the Component's status.latestRevision, and the oldest
// beyond a limit deleted unless an ApplicationConfiguration pins it by revisionName. Pure.
import { isDeepStrictEqual } from 'node:util';
import type { Component } from '@zk-oam/apis';

/** The label v0.3.3 puts on a Component's ControllerRevisions, with the Component's name. */
export const REVISION_COMPONENT_LABEL = 'controller.oam.dev/component';

/** v0.3.3's default number of revisions kept per Component, pinned ones not counted. */
export const DEFAULT_REVISION_LIMIT = 50;

export interface RevisionRef {
  readonly name: string;
  readonly revision: number;
}

/** A ControllerRevision of the Component, with the Component it holds (undefined when its data does not parse). */
export interface StoredRevision extends RevisionRef {
  readonly component: Component | undefined;
}

export interface RevisionPlan {
  /** Write a ControllerRevision of the current Component under this name and number. */
  readonly create: RevisionRef | undefined;
  /** What status.latestRevision says once the plan is carried out. */
  readonly latest: RevisionRef;
  /** Revisions to delete, oldest first. */
  readonly remove: readonly string[];
}

export function revisionName(component: string, revision: number): string {
  return `${component}-v${String(revision)}`;
}

/** Whether `name` is one revisionName gives `component`'s revisions (and so a revisionEnabled workload's name). */
export function isRevisionNameOf(component: string, name: string): boolean {
  return name.startsWith(`${component}-v`) && /^\d+$/.test(name.slice(component.length + 2));
}

/**
 * The revision name of the Component as it is now: status.latestRevision once it records this generation; before the
 * first revision, or while a newer spec's revision is being written, the name planRevisions will give it.
 */
export function currentRevisionName(component: Component): string {
  const latest = component.status?.latestRevision;
  if (latest === undefined) return revisionName(component.metadata.name, 1);
  const recorded = component.status?.observedGeneration === component.metadata.generation;
  return recorded ? latest.name : revisionName(component.metadata.name, latest.revision + 1);
}

/**
 * A new revision when the spec differs from the newest stored one (or none is stored), numbered one past both the
 * newest stored and the status' latestRevision, so a lost status or a deleted revision never reuses a number.
 */
export function planRevisions(input: {
  component: Component;
  revisions: readonly StoredRevision[];
  /** Revision names ApplicationConfigurations of the namespace pin with revisionName. */
  pinned: ReadonlySet<string>;
  limit: number;
}): RevisionPlan {
  const { component, revisions, pinned, limit } = input;
  const oldestFirst = [...revisions].sort((a, b) => a.revision - b.revision);
  const newest = oldestFirst.at(-1);
  const current = newest !== undefined && isDeepStrictEqual(newest.component?.spec, component.spec);
  const number = Math.max(newest?.revision ?? 0, component.status?.latestRevision?.revision ?? 0) + 1;
  const create = current ? undefined : { name: revisionName(component.metadata.name, number), revision: number };
  const latest = create ?? { name: newest?.name ?? '', revision: newest?.revision ?? 0 };
  const all = [...oldestFirst.map((revision) => revision.name), ...(create === undefined ? [] : [create.name])];
  const unpinned = all.filter((name) => !pinned.has(name));
  const excess = Math.max(0, unpinned.length - limit);
  return { create, latest, remove: unpinned.slice(0, excess).filter((name) => name !== latest.name) };
}
