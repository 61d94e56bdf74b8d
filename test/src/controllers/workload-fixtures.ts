// Helpers for tests that drive the workload controller on the bed: create and change ZookeeperWorkloads, wait for
// their status, read the Events recorded about them and the write requests in the apiserver's audit log.
import { open, stat } from 'node:fs/promises';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import {
  parseResource,
  ZOOKEEPER_WORKLOAD,
  zookeeperWorkloadSchema,
  type ZookeeperWorkload,
  type ZookeeperWorkloadSpecInput,
} from '@zk-oam/apis';
import { KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { noteSentences } from '@zk-oam/workload';
import { z } from 'zod';
import type { BedInfo } from '../bed/index.js';
import { BED_ZOOKEEPER_IMAGE } from '../images/zookeeper-images.js';

/** A small ensemble for the bed: the bed's ZooKeeper image, little memory, bed-local volumes. */
export function bedWorkloadSpec(overrides: ZookeeperWorkloadSpecInput = {}): ZookeeperWorkloadSpecInput {
  return {
    replicas: 3,
    image: { ...BED_ZOOKEEPER_IMAGE },
    resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '256Mi' } },
    storage: { size: '64Mi', storageClassName: 'bed-local', reclaimPolicy: 'Delete' },
    ...overrides,
  };
}

export class WorkloadClient {
  readonly core: CoreV1Api;
  private readonly objects: CustomObjectsApi;

  constructor(readonly bed: BedInfo) {
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.kubeconfig);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.objects = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  private target(namespace: string): { group: string; version: string; namespace: string; plural: string } {
    return { group: ZOOKEEPER_WORKLOAD.group, version: ZOOKEEPER_WORKLOAD.version, namespace, plural: ZOOKEEPER_WORKLOAD.plural };
  }

  async create(namespace: string, name: string, spec: ZookeeperWorkloadSpecInput, annotations?: Record<string, string>): Promise<ZookeeperWorkload> {
    const body = {
      apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
      kind: ZOOKEEPER_WORKLOAD.kind,
      metadata: { name, namespace, ...(annotations === undefined ? {} : { annotations }) },
      spec,
    };
    return parseResource(zookeeperWorkloadSchema, await this.objects.createNamespacedCustomObject({ ...this.target(namespace), body }), name);
  }

  async get(namespace: string, name: string): Promise<ZookeeperWorkload> {
    const object: unknown = await this.objects.getNamespacedCustomObject({ ...this.target(namespace), name });
    return parseResource(zookeeperWorkloadSchema, object, `ZookeeperWorkload ${namespace}/${name}`);
  }

  async list(namespace: string): Promise<ZookeeperWorkload[]> {
    const list = z.object({ items: z.array(z.unknown()) }).parse(await this.objects.listNamespacedCustomObject(this.target(namespace)));
    return list.items.map((item, index) => parseResource(zookeeperWorkloadSchema, item, `ZookeeperWorkload ${namespace}[${String(index)}]`));
  }

  /** A JSON merge patch of the workload (spec or metadata). */
  async patch(namespace: string, name: string, body: object): Promise<void> {
    await this.objects.patchNamespacedCustomObject(
      { ...this.target(namespace), name, body },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  async delete(namespace: string, name: string): Promise<void> {
    await this.objects.deleteNamespacedCustomObject({ ...this.target(namespace), name, propagationPolicy: 'Background' });
  }

  async createNamespace(name: string): Promise<void> {
    await this.core.createNamespace({ body: { metadata: { name } } });
  }

  async deleteNamespace(name: string): Promise<void> {
    await this.core.deleteNamespace({ name }).catch(() => undefined);
  }
}

export function condition(workload: ZookeeperWorkload, type: string): { status: string; reason: string; message: string } | undefined {
  return workload.status?.conditions?.find((entry) => entry.type === type);
}

export function isReady(workload: ZookeeperWorkload): boolean {
  return condition(workload, 'Ready')?.status === 'True';
}

const eventListSchema = z.object({
  items: z.array(
    z.looseObject({
      reason: z.string().optional(),
      note: z.string().optional(),
      type: z.string().optional(),
      eventTime: z.string().nullish(),
      /** A repeat of the same event: how often, and when last. */
      series: z.looseObject({ count: z.number(), lastObservedTime: z.string() }).nullish(),
      regarding: z.looseObject({ name: z.string().optional(), kind: z.string().optional() }).optional(),
    }),
  ),
});
export type RecordedEvent = z.infer<typeof eventListSchema>['items'][number];

/** events.k8s.io Events recorded about the object `name` of `kind` (by default the workload) in `namespace`. */
export async function eventsAbout(client: WorkloadClient, namespace: string, name: string, kind: string = ZOOKEEPER_WORKLOAD.kind): Promise<RecordedEvent[]> {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromFile(client.bed.kubeconfig);
  const list = eventListSchema.parse(await new KubeClient(kubeConfig).request('GET', `/apis/events.k8s.io/v1/namespaces/${namespace}/events`));
  return list.items.filter((event) => event.regarding?.kind === kind && event.regarding.name === name);
}

/** What the Events about an object say, one sentence per child the controller wrote (it names them all in one Event per verb). */
export function eventSentences(events: readonly RecordedEvent[]): string[] {
  return events.flatMap((event) => noteSentences(event.note ?? ''));
}

const auditEntrySchema = z.looseObject({
  verb: z.string(),
  user: z.looseObject({ username: z.string() }),
  objectRef: z.looseObject({ resource: z.string().optional(), subresource: z.string().optional(), namespace: z.string().optional(), name: z.string().optional() }).optional(),
  stage: z.string().optional(),
  /** The apiserver's answer: 403 for a write the requester's RBAC forbids (the audit filter runs before authorization). */
  responseStatus: z.looseObject({ code: z.number().optional() }).optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The audit log's current size: pass it to `auditEntriesSince` to read only what was logged afterwards. */
export async function auditLogSize(bed: Pick<BedInfo, 'dir'>): Promise<number> {
  return (await stat(`${bed.dir}/audit.log`)).size;
}

/**
 * The entries logged since `offset`. A log shorter than the offset was rotated, and what was logged since is partly in
 * another file: that is an error, not an empty answer, or a count of writes would read zero.
 */
export async function auditEntriesSince(bed: Pick<BedInfo, 'dir'>, offset: number): Promise<AuditEntry[]> {
  const log = await open(`${bed.dir}/audit.log`);
  try {
    const { size } = await log.stat();
    if (size < offset) throw new Error(`the audit log has ${String(size)} bytes, fewer than the offset ${String(offset)}: it was rotated`);
    const { buffer, bytesRead } = await log.read({ buffer: Buffer.alloc(size - offset), position: offset });
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    // A line still being written is left for a later read.
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        const parsed = auditEntrySchema.safeParse(JSON.parse(line));
        return parsed.success ? [parsed.data] : [];
      });
  } finally {
    await log.close();
  }
}
