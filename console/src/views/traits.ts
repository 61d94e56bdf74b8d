// The traits bound to an ensemble, as the console shows them: each trait names its workload in spec.workloadRef.
import type { ZookeeperRolling, ZookeeperScale } from '@zk-oam/apis';

export interface TraitSummary {
  readonly kind: 'ZookeeperScale' | 'ZookeeperRolling';
  readonly name: string;
  /** The trait's status phase; absent until its controller has written one. */
  readonly phase?: string | undefined;
}

export interface TraitDetail extends TraitSummary {
  readonly spec: object;
  readonly status: object;
}

type Trait = ZookeeperScale | ZookeeperRolling;

function detailOf(trait: Trait): TraitDetail {
  return { kind: trait.kind, name: trait.metadata.name, phase: trait.status?.phase, spec: trait.spec, status: trait.status ?? {} };
}

/** `namespace/workload`, the key traits are grouped by. */
export function workloadKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** Every trait's detail under the key of the workload it names, scale traits before rolling traits. */
export function traitsByWorkload(scales: readonly ZookeeperScale[], rollings: readonly ZookeeperRolling[]): Map<string, TraitDetail[]> {
  const grouped = new Map<string, TraitDetail[]>();
  for (const trait of [...scales, ...rollings]) {
    const key = workloadKey(trait.metadata.namespace ?? '', trait.spec.workloadRef.name);
    grouped.set(key, [...(grouped.get(key) ?? []), detailOf(trait)]);
  }
  return grouped;
}

export function traitSummary(trait: TraitDetail): TraitSummary {
  return { kind: trait.kind, name: trait.name, phase: trait.phase };
}
