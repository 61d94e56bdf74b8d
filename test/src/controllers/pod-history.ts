// Which member pods a roll restarted, in order, and how many were down at once, from the successive states of the pods.
// The counting is a pure fold over whole lists of the pods (PodTally); PodHistory follows the pods with an informer (one
// LIST, then a watch) and folds the informer's whole cache at every change: every state the apiserver went through, at
// the cost of one watch, where a LIST every 250 ms missed what lasted less and was a quarter of the apiserver's requests
// in a roll test.
import type { V1Pod } from '@kubernetes/client-node';
import { pino } from 'pino';
import { z } from 'zod';
import { memberSelectorOf } from '@zk-oam/apis';
import { collectionPath, coreResources, Informer, KubeClient, kubeObjectSchema, PooledKubeConfig, type KubeObject } from '@zk-oam/runtime';
import type { BedInfo } from '../bed/index.js';
import { podReady } from '../pod-ready.js';
import { waitFor } from '../wait-for.js';

/** One pod going down for good (Terminating or gone) after the baseline. */
export interface Restart {
  readonly pod: string;
  readonly uid: string;
  readonly at: number;
}

/** A replacement pod (a uid the baseline did not have) seen Ready for the first time: the restarted member back. */
export type PodReturn = Restart;

function terminating(pod: V1Pod): boolean {
  return pod.metadata?.deletionTimestamp !== undefined;
}

function ready(pod: V1Pod): boolean {
  return !terminating(pod) && podReady(pod);
}

function uidOf(pod: V1Pod): string {
  return pod.metadata?.uid ?? '';
}

/**
 * Counts from a baseline: the first list in which all `members` pods are Ready. Those uids are up from then on, so a
 * readiness dip of a member nobody is replacing never counts. After it, a member is down only while the roll replaces
 * it: Terminating, missing, or a new uid that has not been Ready yet. Lists before the baseline count nothing.
 */
export class PodTally {
  readonly restarts: Restart[] = [];
  readonly returns: PodReturn[] = [];
  mostDown = 0;
  private readonly up = new Set<string>();
  private readonly live = new Map<string, string>();
  private baselineTaken = false;

  constructor(private readonly members: number) {}

  get baselined(): boolean {
    return this.baselineTaken;
  }

  observe(pods: readonly V1Pod[], at: number): void {
    if (!this.baselineTaken) {
      this.takeBaseline(pods);
      return;
    }
    const byName = new Map(pods.map((pod) => [pod.metadata?.name ?? '', pod]));
    for (const [name, uid] of [...this.live]) {
      const pod = byName.get(name);
      if (pod === undefined || uidOf(pod) !== uid || terminating(pod)) {
        this.restarts.push({ pod: name, uid, at });
        this.live.delete(name);
      }
    }
    for (const pod of pods) {
      const gone = this.restarts.some((restart) => restart.uid === uidOf(pod));
      if (!terminating(pod) && !gone) this.live.set(pod.metadata?.name ?? '', uidOf(pod));
      if (ready(pod) && !this.up.has(uidOf(pod))) {
        this.up.add(uidOf(pod));
        this.returns.push({ pod: pod.metadata?.name ?? '', uid: uidOf(pod), at });
      }
    }
    const upNow = pods.filter((pod) => !terminating(pod) && this.up.has(uidOf(pod))).length;
    this.mostDown = Math.max(this.mostDown, this.members - upNow);
  }

  private takeBaseline(pods: readonly V1Pod[]): void {
    const readyPods = pods.filter(ready);
    if (readyPods.length < this.members) return;
    for (const pod of readyPods) {
      this.up.add(uidOf(pod));
      this.live.set(pod.metadata?.name ?? '', uidOf(pod));
    }
    this.baselineTaken = true;
  }
}

/** The tally of a whole sequence of lists, each with the time it was read. */
export function tallyPods(members: number, lists: readonly { at: number; pods: readonly V1Pod[] }[]): PodTally {
  const tally = new PodTally(members);
  for (const list of lists) tally.observe(list.pods, list.at);
  return tally;
}

/** Where a history finds the member pods: a namespace and the workload's member selector, on a bed. */
export interface MemberPodSource {
  readonly bed: Pick<BedInfo, 'kubeconfig'>;
  readonly namespace: string;
  readonly labelSelector: string;
}

/** The member pods of `workload` in `namespace`, on the bed of `client` (a WorkloadClient, or anything else with the bed). */
export function memberPodSource(client: { readonly bed: Pick<BedInfo, 'kubeconfig'> }, namespace: string, workload: string): MemberPodSource {
  return { bed: client.bed, namespace, labelSelector: memberSelectorOf(workload) };
}

type MemberPod = KubeObject & V1Pod;

const memberPodSchema = z.custom<MemberPod>((value) => kubeObjectSchema.safeParse(value).success, 'not a Kubernetes object');
const podListSchema = z.object({ metadata: z.object({ resourceVersion: z.string() }).loose(), items: z.array(kubeObjectSchema) });

/** The bed's etcd revisions: resourceVersions are opaque to clients, but on this bed they are etcd's increasing revisions. */
function revision(resourceVersion: string | undefined): number {
  return Number(resourceVersion ?? 0);
}

/** Follows a workload's member pods into a PodTally, from a baseline taken before the change under test starts. */
export class PodHistory {
  private readonly tally: PodTally;
  private readonly client: KubeClient;
  private readonly informer: Informer<MemberPod>;

  constructor(
    private readonly source: MemberPodSource,
    members: number,
  ) {
    this.tally = new PodTally(members);
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(source.bed.kubeconfig);
    this.client = new KubeClient(kubeConfig);
    this.informer = new Informer({
      client: this.client,
      resource: coreResources.pod,
      schema: memberPodSchema,
      namespace: source.namespace,
      labelSelector: source.labelSelector,
      logger: pino({ name: 'pod-history', level: 'warn' }),
      // A relist or a retried watch comes back within a second: the history should not be blind for long.
      backoff: { baseMs: 100, maxMs: 1_000 },
    });
    // The cache holds every member pod at each event (a relist replaces it whole before it tells), so each fold sees
    // one consistent state.
    this.informer.subscribe(() => this.tally.observe(this.informer.lister.list(), Date.now()));
  }

  get restarts(): readonly Restart[] {
    return this.tally.restarts;
  }

  get mostDown(): number {
    return this.tally.mostDown;
  }

  get returns(): readonly PodReturn[] {
    return this.tally.returns;
  }

  /**
   * Resolves once the history has seen the pods as a LIST made now shows them: whatever the pods went through before
   * the call is in `restarts` and `returns` then. Call it after a signal (a reconcile counted, a condition seen) before
   * asserting on the history. Caught up means the watch delivered an event at or after the LIST's revision, or, when
   * nothing changed since, that the cache holds exactly the listed pods at their listed versions.
   */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const list = podListSchema.parse(
      await this.client.request('GET', collectionPath(coreResources.pod, this.source.namespace), { query: { labelSelector: this.source.labelSelector } }),
    );
    const listed = new Map(list.items.map((pod) => [pod.metadata.name, pod.metadata.resourceVersion]));
    const matchesList = (): boolean => {
      const cached = this.informer.lister.list();
      return cached.length === listed.size && cached.every((pod) => listed.get(pod.metadata.name) === pod.metadata.resourceVersion);
    };
    const caught = (): boolean => revision(this.informer.lastResourceVersion) >= revision(list.metadata.resourceVersion) || matchesList();
    await waitFor('the pod history caught up with a LIST of the pods', async () => caught(), (done) => done, timeoutMs, 50);
  }

  /** Starts following the pods and resolves once the baseline is taken: every member Ready at once. */
  async start(baselineTimeoutMs = 300_000): Promise<void> {
    this.informer.start();
    await waitFor("every member Ready at once (the pod history's baseline)", async () => this.tally.baselined, (baselined) => baselined, baselineTimeoutMs, 50);
  }

  async stop(): Promise<void> {
    await this.informer.stop();
  }

  /** Restarts per pod name. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const restart of this.tally.restarts) counts[restart.pod] = (counts[restart.pod] ?? 0) + 1;
    return counts;
  }

  order(): string[] {
    return this.tally.restarts.map((restart) => restart.pod);
  }
}
