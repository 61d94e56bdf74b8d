// What the backup controller needs of a target: put, get, list and delete objects by key. The S3 target implements it
// (s3.ts); a PersistentVolumeClaim target would be another implementation.
export interface ObjectStore {
  /** Where a key is, for people: s3://bucket/key. */
  location(key: string): string;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Every key under the prefix, in key order. */
  list(prefix: string): Promise<string[]>;
  /** Deletes the keys; a key already gone is not an error. */
  delete(keys: readonly string[]): Promise<void>;
  close(): void;
}

/** A request the object store refused or did not answer: its operation and key, the store's code when it gave one. */
export class ObjectStoreError extends Error {
  override readonly name = 'ObjectStoreError';
  constructor(
    readonly operation: string,
    readonly key: string,
    options: ErrorOptions & { readonly code?: string | undefined },
  ) {
    const cause = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`${operation} ${key} failed${options.code === undefined ? '' : ` (${options.code})`}: ${cause}`, options);
  }
}
