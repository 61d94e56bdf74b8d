// What identifies a custom resource kind: group, version, names; shared by schemas, clients and the CRD generator.
export interface KindInfo {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** `group/version`, as written in `apiVersion`. */
  readonly apiVersion: string;
}

/** Builds a KindInfo whose apiVersion always agrees with its group and version. */
export function kindInfo<const K extends Omit<KindInfo, 'apiVersion'>>(
  info: K,
): K & { readonly apiVersion: `${K['group']}/${K['version']}` } {
  return { ...info, apiVersion: `${info.group}/${info.version}` as const };
}
