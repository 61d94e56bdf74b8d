// The latest look at each workload's ensemble, kept in memory only, for the observation request-reply: the status does
// not carry zxids (they change with every write), so whoever wants them asks the controller that just looked. A
// workload's entry is replaced at each look and forgotten when the workload is gone. It is not a source of truth:
// after a restart it is empty until each workload's next look, and nothing is answered until then. The look is kept as
// it was made and turned into a reply only when asked: every ensemble is looked at every period, few are asked about.
import { formatKey, type ObjectKey } from '@zk-oam/runtime';
import type { ObservationReply } from '@zk-oam/apis';
import type { EnsembleObservation } from '@zk-oam/zookeeper';
import { observationReply, type ObservedWorkload } from './reply.js';

interface Look {
  readonly workload: ObservedWorkload;
  readonly observation: EnsembleObservation | undefined;
  readonly at: Date;
}

export class LatestObservations {
  private readonly byWorkload = new Map<string, Look>();

  /** `observation` is undefined when there was no member pod to ask. */
  record(workload: ObservedWorkload, observation: EnsembleObservation | undefined, at: Date): void {
    this.byWorkload.set(formatKey(workload), { workload, observation, at });
  }

  forget(key: ObjectKey): void {
    this.byWorkload.delete(formatKey(key));
  }

  latest(key: ObjectKey): ObservationReply | undefined {
    const look = this.byWorkload.get(formatKey(key));
    return look === undefined ? undefined : observationReply(look.workload, look.observation, look.at);
  }
}
