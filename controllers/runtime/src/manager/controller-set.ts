// Several controllers in one process, as Kubernetes' controller manager runs its controllers: each keeps its own Manager
// (its own Lease, informers, queue and metrics registry labelled controller=<name>), the process serves one /healthz,
// /readyz (a line per controller that is not ready) and /metrics (every registry's series, merged).
//
// A controller whose Manager stops (leadership lost, a start that threw) is started again from a fresh Manager after a
// backoff, which is the clean state a separate deployable gets from its restart; the others run on meanwhile, and
// /readyz names it until it is back, so a failure is never silent. An uncaught exception still ends the whole process:
// the controllers share it.
import { AggregatorRegistry, Counter, Registry } from 'prom-client';
import type { Logger } from 'pino';
import { backoffDelayMs, type BackoffPolicy } from '../retry/backoff.js';
import { pause } from '../retry/pause.js';
import type { ConfiguredController, StartedController } from './controller-module.js';
import { startHttpServer, type MetricsSource, type ReadinessCheck } from './http-server.js';
import type { Manager } from './manager.js';
import { controllerParts, processRegistry, type ControllerProcessParts, type ProcessEnv } from './process.js';
import { warnOfOldSettingNames } from './renamed-settings.js';
import { failureReason } from './run-main.js';

/** The label every series of a controller carries in a process that runs several. */
export const CONTROLLER_LABEL = 'controller';

/** A start again soon after a failure, then less often while it keeps failing. */
const RESTART_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, jitter: 0.2 };
/** A Manager that ran this long before stopping counts as having started well: the backoff starts over. */
const STABLE_RUN_MS = 120_000;

export interface ControllerSetOptions {
  /** The process' settings: its probe/metrics address. */
  readonly env: Pick<ProcessEnv, 'METRICS_PORT' | 'HEALTH_HOST'>;
  readonly log: Logger;
  readonly signal: AbortSignal;
  /**
   * How a controller's parts are made at each start (acting as whom, say); controllerParts without a server of its own by
   * default. A promise that rejects fails that start alone: /readyz names why, and it is tried again after the backoff.
   */
  readonly makeParts?: (controller: NamedController, registry: Registry) => ControllerProcessParts | Promise<ControllerProcessParts>;
  readonly restartBackoff?: BackoffPolicy;
}

/** A controller of the set, by the name its /readyz line, its metrics' label and its logs' `controller` give it. */
export interface NamedController {
  readonly name: string;
  readonly configured: ConfiguredController;
}

type SlotState =
  | { readonly phase: 'starting' }
  | { readonly phase: 'running'; readonly manager: Pick<Manager, 'readinessProblem'> }
  | { readonly phase: 'failed'; readonly reason: string };

/** One controller of the set, started and started again until the process stops. */
class ControllerSlot {
  private state: SlotState = { phase: 'starting' };
  /** The registry of its current Manager: each start registers the kit's metrics afresh. */
  registry = new Registry();

  readonly name: string;

  constructor(
    private readonly controller: NamedController,
    private readonly options: ControllerSetOptions & { readonly restarts: Counter<'controller'> },
  ) {
    this.name = controller.name;
  }

  problem(): string | undefined {
    switch (this.state.phase) {
      case 'starting':
        return 'starting';
      case 'running':
        return this.state.manager.readinessProblem();
      case 'failed':
        return this.state.reason;
    }
  }

  async supervise(): Promise<void> {
    const { signal, log } = this.options;
    let failures = 0;
    while (!signal.aborted) {
      const ranFrom = Date.now();
      const failure = await this.runOnce();
      if (failure === undefined || signal.aborted) return;
      if (Date.now() - ranFrom >= STABLE_RUN_MS) failures = 0;
      const delayMs = backoffDelayMs(failures, this.options.restartBackoff ?? RESTART_BACKOFF);
      failures += 1;
      this.state = { phase: 'failed', reason: `stopped (${failure}); starting again in ${String(Math.round(delayMs / 1000))} s` };
      this.options.restarts.inc({ [CONTROLLER_LABEL]: this.name });
      log.error({ controller: this.name, reason: failure, delayMs }, 'controller stopped; the others run on, and it starts again from a fresh manager');
      await pause(delayMs, signal);
    }
  }

  /** Runs one Manager of the controller to its end: undefined when stopped by the signal, else why it ended. */
  private async runOnce(): Promise<string | undefined> {
    this.state = { phase: 'starting' };
    this.registry = new Registry();
    this.registry.setDefaultLabels({ [CONTROLLER_LABEL]: this.name });
    let started: StartedController = {};
    try {
      const parts = await (this.options.makeParts ?? defaultParts)(this.controller, this.registry);
      started = this.controller.configured.start(parts);
      this.state = { phase: 'running', manager: parts.manager };
      await parts.manager.run(this.options.signal);
      return undefined;
    } catch (error) {
      return failureReason(error);
    } finally {
      await started.cleanup?.().catch((error: unknown) => this.options.log.warn({ controller: this.name, err: error }, 'cleanup failed'));
    }
  }
}

function defaultParts({ configured }: NamedController, registry: Registry): ControllerProcessParts {
  return controllerParts(configured.names, configured.env, { registry });
}

/** Every series of the process' registry and of each controller's, in one exposition (the controllers' are labelled apart). */
function mergedMetrics(processMetrics: Registry, slots: readonly ControllerSlot[]): MetricsSource {
  return {
    contentType: processMetrics.contentType,
    metrics: async () => {
      const families = await Promise.all([processMetrics, ...slots.map((slot) => slot.registry)].map((registry) => registry.getMetricsAsJSON()));
      // Summing is merging here: no two registries hold a series with the same labels.
      const merged = families.map((registry) => registry.map((family) => ({ ...family, aggregator: 'sum' as const })));
      return AggregatorRegistry.aggregate(merged).metrics();
    },
  };
}

/** Runs `controllers` until `options.signal` aborts, each under its own Lease; resolves once every Lease is released. */
export async function runControllerSet(controllers: readonly NamedController[], options: ControllerSetOptions): Promise<void> {
  const registry = processRegistry();
  const restarts = new Counter({
    name: 'manager_controller_restarts_total',
    help: 'Controllers of this process started again from a fresh manager after theirs stopped (leadership lost, start failed)',
    labelNames: [CONTROLLER_LABEL],
    registers: [registry],
  });
  const slots = controllers.map((controller) => new ControllerSlot(controller, { ...options, restarts }));
  const readiness: ReadinessCheck[] = slots.map((slot) => ({ name: slot.name, problem: () => slot.problem() }));
  const server = await startHttpServer({
    host: options.env.HEALTH_HOST,
    port: options.env.METRICS_PORT,
    metrics: mergedMetrics(registry, slots),
    readiness,
    logger: options.log,
  });
  for (const { name, configured } of controllers) warnOfOldSettingNames(options.log.child({ controller: name }), configured.oldSettingNames);
  options.log.info({ controllers: slots.map((slot) => slot.name) }, 'starting the controllers, each under its own Lease');
  await Promise.all(slots.map((slot) => slot.supervise()));
  await server.close();
}
