// The latest look at each workload's ensemble, kept in memory only, for the observation request-reply: the status does
// not carry zxids (they change with every write), so whoever wants them asks the controller that just looked. A
// workload's entry is replaced at each look and forgotten when the workload is gone. It is not a source of truth:
// after a restart it is empty until each workload's next look, and nothing is answered until then.
import { formatKey, type ObjectKey } from '@zk-oam/runtime';
import type { ObservationReply } from '@zk-oam/apis';

export class LatestObservations {
  private readonly byWorkload = new Map<string, ObservationReply>();

  record(reply: ObservationReply): void {
    this.byWorkload.set(formatKey({ namespace: reply.workload.namespace, name: reply.workload.name }), reply);
  }

  forget(key: ObjectKey): void {
    this.byWorkload.delete(formatKey(key));
  }

  latest(key: ObjectKey): ObservationReply | undefined {
    return this.byWorkload.get(formatKey(key));
  }
}
