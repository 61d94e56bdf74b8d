// What a person reads about a condition or Warning Event reason in docs/troubleshooting.md. Each controller's reasons
// are a catalog of these, and the controller's condition and Event types are the catalog's keys: a reason without an
// entry does not compile, so the troubleshooting guide cannot fall behind the code.

export interface ReasonEntry {
  /** Where it is shown: condition types (`Ready`, `Degraded`, ...) and `Warning Event`. */
  readonly shownIn: readonly string[];
  /** What happened, in a sentence or two. */
  readonly means: string;
  /** What to do about it; "nothing" is an answer. */
  readonly todo: string;
}

export type ReasonCatalog = Readonly<Record<string, ReasonEntry>>;

/** A catalog with its keys kept as a union type. */
export function reasonCatalog<const C extends ReasonCatalog>(catalog: C): C {
  return catalog;
}

/** Whether `reason` has an entry in `catalog`: narrows a reason read back from a stored condition. */
export function isCatalogued<C extends ReasonCatalog>(catalog: C, reason: string): reason is Extract<keyof C, string> {
  return Object.hasOwn(catalog, reason);
}
