// A parse kept beside the object it was made from. An informer's cache holds one object per version and replaces it on
// the object's next event, so a reconcile that runs again on an unchanged object finds its parse here. In a burst a
// workload is reconciled once per event of each of its children: parsing its spec and status every time was about a
// sixth of the workload controller's CPU (a profile of 100 ensembles applied at once). A kept parse is shared: its
// readers never change it.

const kept = new WeakMap<object, Map<unknown, unknown>>();

/**
 * `parse()` of `data`, made once per `data` object and `by` (the schema, say: one object may be read through several);
 * data that is no object is parsed each time.
 */
export function keptParse<T>(data: unknown, by: unknown, parse: () => T): T {
  if (typeof data !== 'object' || data === null) return parse();
  const parses = kept.get(data) ?? new Map<unknown, unknown>();
  kept.set(data, parses);
  if (parses.has(by)) return parses.get(by) as T;
  const result = parse();
  parses.set(by, result);
  return result;
}
