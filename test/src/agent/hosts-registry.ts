// Keeps <dir>/hosts listing every bed pod that has hostname and subdomain; rewrites it in place on change.
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { writeFile } from 'node:fs/promises';
import { renderHostsFile, type PodDnsEntry } from './hosts-file.js';

export class HostsRegistry {
  private readonly entries = new Map<string, PodDnsEntry & { uid: string }>();
  private written = '';
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly log: Logger,
  ) {}

  /** Adds or refreshes the pod's entry; pods without hostname and subdomain have no DNS name to publish. */
  set(pod: V1Pod, ip: string): Promise<void> {
    const { hostname, subdomain } = pod.spec ?? {};
    const key = podKey(pod);
    if (hostname && subdomain) {
      this.entries.set(key, { namespace: pod.metadata?.namespace ?? '', hostname, subdomain, ip, uid: pod.metadata?.uid ?? '' });
    }
    return this.flush();
  }

  /** Forgets the pod unless its name already belongs to a newer pod (a StatefulSet replacement). */
  remove(pod: V1Pod): Promise<void> {
    const key = podKey(pod);
    if (this.entries.get(key)?.uid === pod.metadata?.uid) {
      this.entries.delete(key);
    }
    return this.flush();
  }

  /** Writes the current content if it changed; writes are chained so the newest content lands last. */
  flush(): Promise<void> {
    const next = this.writing.then(() => this.writeIfChanged());
    this.writing = next.catch((error: unknown) => this.log.error({ err: error, path: this.path }, 'writing the hosts file failed'));
    return next;
  }

  private async writeIfChanged(): Promise<void> {
    const content = renderHostsFile([...this.entries.values()]);
    if (content !== this.written) {
      // In place, not renamed over: every container has this file bind-mounted as /etc/hosts, and a bind mount keeps the
      // file it was made with. Truncate, then write: a reader sees at worst a shorter file, never a wrong address.
      await writeFile(this.path, content);
      this.written = content;
      this.log.debug({ path: this.path, pods: this.entries.size }, 'hosts file written');
    }
  }
}

export function podKey(pod: V1Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}
