// A test's client for one of our custom resource kinds: create, read through the kind's zod schema, patch, list, delete, and
// whether one is gone, as the bed's admin.
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { parseResource, type KindInfo } from '@zk-oam/apis';
import { PooledKubeConfig } from '@zk-oam/runtime';
import { z } from 'zod';
import type { BedInfo } from '../bed/index.js';

const listSchema = z.object({ items: z.array(z.object({ metadata: z.object({ name: z.string() }) })) });

export class CustomObjects<S extends z.ZodType> {
  private readonly objects: CustomObjectsApi;

  constructor(
    readonly bed: BedInfo,
    private readonly kind: KindInfo,
    private readonly schema: S,
  ) {
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.kubeconfig);
    this.objects = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  private target(namespace: string): { group: string; version: string; namespace: string; plural: string } {
    return { group: this.kind.group, version: this.kind.version, namespace, plural: this.kind.plural };
  }

  async create(namespace: string, name: string, spec: unknown): Promise<void> {
    const body = { apiVersion: this.kind.apiVersion, kind: this.kind.kind, metadata: { name, namespace }, spec };
    await this.objects.createNamespacedCustomObject({ ...this.target(namespace), body });
  }

  async get(namespace: string, name: string): Promise<z.output<S>> {
    const object: unknown = await this.objects.getNamespacedCustomObject({ ...this.target(namespace), name });
    return parseResource(this.schema, object, `${this.kind.kind} ${namespace}/${name}`);
  }

  /** A JSON merge patch of the object (spec or metadata). */
  async patch(namespace: string, name: string, body: object): Promise<void> {
    await this.objects.patchNamespacedCustomObject({ ...this.target(namespace), name, body }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  }

  async list(namespace: string): Promise<string[]> {
    return listSchema.parse(await this.objects.listNamespacedCustomObject(this.target(namespace))).items.map((item) => item.metadata.name);
  }

  /** Whether it is gone: deleted, its finalizers done. */
  async gone(namespace: string, name: string): Promise<boolean> {
    return this.objects.getNamespacedCustomObject({ ...this.target(namespace), name }).then(
      () => false,
      (error: unknown) => (error as { code?: number }).code === 404,
    );
  }

  async delete(namespace: string, name: string): Promise<void> {
    await this.objects.deleteNamespacedCustomObject({ ...this.target(namespace), name });
  }
}
