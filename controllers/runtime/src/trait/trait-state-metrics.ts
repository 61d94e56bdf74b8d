// What a trait's status says, as metrics an alert can read: whether it is Blocked (waiting for a person) and since when
// its operation (a scaling, a roll) has been under way. One series per trait object, removed when the object goes.
import { Gauge, type Registry } from 'prom-client';
import type { ObjectKey } from '../kube/object.js';

export interface TraitState {
  readonly blocked: boolean;
  /** When the operation under way began; undefined when idle. */
  readonly operationStartedAt: Date | undefined;
}

export class TraitStateMetrics {
  private readonly blocked: Gauge<'kind' | 'namespace' | 'name'>;
  private readonly started: Gauge<'kind' | 'namespace' | 'name'>;

  constructor(
    registry: Registry,
    private readonly kind: string,
  ) {
    const registers = [registry];
    const labelNames = ['kind', 'namespace', 'name'] as const;
    this.blocked = existingOr(registry, 'zookeeper_trait_blocked', () =>
      new Gauge({ name: 'zookeeper_trait_blocked', help: '1 while the trait is Blocked and waits for a person, else 0', labelNames, registers }),
    );
    this.started = existingOr(registry, 'zookeeper_trait_operation_started_timestamp_seconds', () =>
      new Gauge({
        name: 'zookeeper_trait_operation_started_timestamp_seconds',
        help: 'Unix time the scaling or roll under way began; absent while the trait is idle',
        labelNames,
        registers,
      }),
    );
  }

  report(key: ObjectKey, state: TraitState): void {
    const labels = { kind: this.kind, namespace: key.namespace, name: key.name };
    this.blocked.set(labels, state.blocked ? 1 : 0);
    if (state.operationStartedAt === undefined) this.started.remove(labels);
    else this.started.set(labels, state.operationStartedAt.getTime() / 1000);
  }

  forget(key: ObjectKey): void {
    const labels = { kind: this.kind, namespace: key.namespace, name: key.name };
    this.blocked.remove(labels);
    this.started.remove(labels);
  }
}

function existingOr(registry: Registry, name: string, create: () => Gauge<'kind' | 'namespace' | 'name'>): Gauge<'kind' | 'namespace' | 'name'> {
  const existing = registry.getSingleMetric(name);
  return existing instanceof Gauge ? (existing as Gauge<'kind' | 'namespace' | 'name'>) : create();
}
