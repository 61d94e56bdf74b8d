// The kit's Prometheus metrics, named like controller-runtime's, registered on a registry the caller passes in.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface QueueMetrics {
  readonly depth: Gauge<'name'>;
  readonly adds: Counter<'name'>;
  readonly queueDuration: Histogram<'name'>;
  readonly workDuration: Histogram<'name'>;
  readonly retries: Counter<'name'>;
}

export interface ReconcileMetrics {
  readonly total: Counter<'controller' | 'result'>;
  readonly errors: Counter<'controller'>;
  readonly time: Histogram<'controller'>;
  readonly maxConcurrent: Gauge<'controller'>;
  readonly activeWorkers: Gauge<'controller'>;
}

export interface RuntimeMetrics {
  readonly registry: Registry;
  readonly queue: QueueMetrics;
  readonly reconcile: ReconcileMetrics;
  readonly informerRestarts: Counter<'resource' | 'reason'>;
  readonly informerInvalidObjects: Counter<'resource'>;
  readonly leader: Gauge<'name'>;
  readonly leaderRenewInterval: Histogram<'name'>;
  readonly leaderSlowpath: Counter<'name'>;
}

/** Creates every kit metric on `registry`; call once per registry. */
export function createRuntimeMetrics(registry: Registry): RuntimeMetrics {
  const registers = [registry];
  return {
    registry,
    queue: {
      depth: new Gauge({ name: 'workqueue_depth', help: 'Current depth of the work queue', labelNames: ['name'], registers }),
      adds: new Counter({ name: 'workqueue_adds_total', help: 'Adds handled by the work queue', labelNames: ['name'], registers }),
      queueDuration: new Histogram({
        name: 'workqueue_queue_duration_seconds',
        help: 'How long an item stays in the work queue before being handed to a worker',
        labelNames: ['name'],
        buckets: latencyBuckets,
        registers,
      }),
      workDuration: new Histogram({
        name: 'workqueue_work_duration_seconds',
        help: 'How long processing an item from the work queue takes',
        labelNames: ['name'],
        buckets: latencyBuckets,
        registers,
      }),
      retries: new Counter({ name: 'workqueue_retries_total', help: 'Retries handled by the work queue', labelNames: ['name'], registers }),
    },
    reconcile: {
      total: new Counter({
        name: 'controller_runtime_reconcile_total',
        help: 'Reconciliations per controller and result (success, error, requeue_after)',
        labelNames: ['controller', 'result'],
        registers,
      }),
      errors: new Counter({
        name: 'controller_runtime_reconcile_errors_total',
        help: 'Reconciliation errors per controller',
        labelNames: ['controller'],
        registers,
      }),
      time: new Histogram({
        name: 'controller_runtime_reconcile_time_seconds',
        help: 'Length of reconciliations per controller',
        labelNames: ['controller'],
        buckets: latencyBuckets,
        registers,
      }),
      maxConcurrent: new Gauge({
        name: 'controller_runtime_max_concurrent_reconciles',
        help: 'Maximum number of concurrent reconciles per controller',
        labelNames: ['controller'],
        registers,
      }),
      activeWorkers: new Gauge({
        name: 'controller_runtime_active_workers',
        help: 'Number of workers currently reconciling, per controller',
        labelNames: ['controller'],
        registers,
      }),
    },
    informerRestarts: new Counter({
      name: 'informer_watch_restarts_total',
      help: 'Watch restarts per resource and reason (closed, expired, error, stalled)',
      labelNames: ['resource', 'reason'],
      registers,
    }),
    informerInvalidObjects: new Counter({
      name: 'informer_invalid_objects_total',
      help: 'Objects from the apiserver dropped because they did not parse',
      labelNames: ['resource'],
      registers,
    }),
    leader: new Gauge({
      name: 'leader_election_master_status',
      help: '1 while this instance holds the lease, 0 otherwise',
      labelNames: ['name'],
      registers,
    }),
    leaderRenewInterval: new Histogram({
      name: 'leader_election_renew_interval_seconds',
      help: 'Time between two successful renewals of the held lease: the retry period when nothing starves the renew loop; leadership is lost past the renew deadline',
      labelNames: ['name'],
      buckets: [1, 2, 2.5, 3, 4, 5, 7.5, 10, 15],
      registers,
    }),
    leaderSlowpath: new Counter({
      name: 'leader_election_slowpath_total',
      help: "Renewals of the held lease that could not be made with one optimistic update and read the Lease first (client-go's counter)",
      labelNames: ['name'],
      registers,
    }),
  };
}
