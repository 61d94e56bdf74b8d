// Which traits' Events belong on an ensemble's stream: those of the traits that name it. A trait made after the
// stream opened (the console's own scale or restart makes one) is looked up, as the caller, the first time one of its
// Events arrives; the answer is kept for the life of the stream.
import { objectPath, workloadNamedBy, type KubeClient, type ResourceType } from '@zk-oam/runtime';
import type { TraitSummary } from '../views/traits.js';
import { rollings, scales } from '../kube/resources.js';

export const TRAIT_RESOURCES: readonly ResourceType[] = [scales, rollings];

export class BoundTraits {
  private readonly known = new Map<string, Promise<boolean>>();

  constructor(
    private readonly client: Pick<KubeClient, 'request'>,
    private readonly namespace: string,
    private readonly workload: string,
    bound: readonly TraitSummary[],
  ) {
    for (const trait of bound) this.known.set(`${trait.kind}/${trait.name}`, Promise.resolve(true));
  }

  /** Whether the trait `kind/name` names this workload; a trait the caller may not read, or that is gone, does not. */
  names(kind: string, name: string): Promise<boolean> {
    const key = `${kind}/${name}`;
    let answer = this.known.get(key);
    if (answer === undefined) {
      answer = this.lookUp(kind, name);
      this.known.set(key, answer);
    }
    return answer;
  }

  private async lookUp(kind: string, name: string): Promise<boolean> {
    const resource = TRAIT_RESOURCES.find((candidate) => candidate.kind === kind);
    if (resource === undefined) return false;
    try {
      return workloadNamedBy(await this.client.request('GET', objectPath(resource, { namespace: this.namespace, name }))) === this.workload;
    } catch {
      return false;
    }
  }
}
