// Field paths as OAM Components and TraitDefinitions write them (`spec.replicas`, `spec.containers[0].image`,
// `metadata.labels[app.kubernetes.io/name]`), parsed and written into plain JSON objects; pure.

export type FieldSegment = { readonly kind: 'field'; readonly name: string } | { readonly kind: 'index'; readonly index: number };

export class FieldPathError extends Error {
  override readonly name = 'FieldPathError';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`field path ${JSON.stringify(path)} ${problem}`);
  }
}

const SEGMENT = /^(?:\.?([^.[\]]+)|\[(\d+)\]|\[([^\]]+)\])/;

/** `a.b[0][c.d]` -> field a, field b, index 0, field c.d. A bracket with digits is an array index. */
export function parseFieldPath(path: string): FieldSegment[] {
  const segments: FieldSegment[] = [];
  let rest = path;
  while (rest !== '') {
    const match = SEGMENT.exec(rest);
    if (match === null || (segments.length === 0 && rest.startsWith('.'))) throw new FieldPathError(path, `is malformed at ${JSON.stringify(rest)}`);
    const [whole, field, index, bracketed] = match;
    if (index !== undefined) segments.push({ kind: 'index', index: Number(index) });
    else segments.push({ kind: 'field', name: field ?? bracketed ?? '' });
    rest = rest.slice(whole.length);
  }
  if (segments.length === 0) throw new FieldPathError(path, 'is empty');
  return segments;
}

type Container = Record<string, unknown> | unknown[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function containerFor(segment: FieldSegment): Container {
  return segment.kind === 'index' ? [] : {};
}

function childOf(container: Container, segment: FieldSegment, path: string): unknown {
  if (segment.kind === 'index') {
    if (!Array.isArray(container)) throw new FieldPathError(path, `indexes [${String(segment.index)}] into something that is not a list`);
    if (segment.index > container.length) throw new FieldPathError(path, `indexes [${String(segment.index)}] past the end of a list of ${String(container.length)}`);
    return container[segment.index];
  }
  if (!isRecord(container)) throw new FieldPathError(path, `names field ${JSON.stringify(segment.name)} of something that is not an object`);
  return container[segment.name];
}

function store(container: Container, segment: FieldSegment, value: unknown): void {
  if (segment.kind === 'index' && Array.isArray(container)) container[segment.index] = value;
  else if (segment.kind === 'field' && isRecord(container)) container[segment.name] = value;
}

/** A copy of `object` with `value` at `path`; missing objects and lists on the way are created. */
export function withField<T extends Record<string, unknown>>(object: T, path: string, value: unknown): T {
  const segments = parseFieldPath(path);
  const copy = structuredClone(object);
  let container: Container = copy;
  for (const [position, segment] of segments.entries()) {
    const next = segments[position + 1];
    const child = childOf(container, segment, path);
    if (next === undefined) {
      store(container, segment, value);
      break;
    }
    const nextContainer = child === undefined || child === null ? containerFor(next) : child;
    if (!isRecord(nextContainer) && !Array.isArray(nextContainer)) {
      throw new FieldPathError(path, `passes through a ${typeof nextContainer} value`);
    }
    store(container, segment, nextContainer);
    container = nextContainer;
  }
  return copy;
}

/** The value at `path`, or undefined when a step on the way is missing or of another shape. */
export function readField(object: unknown, path: string): unknown {
  let current: unknown = object;
  for (const segment of parseFieldPath(path)) {
    if (segment.kind === 'index') current = Array.isArray(current) ? current[segment.index] : undefined;
    else current = isRecord(current) ? current[segment.name] : undefined;
    if (current === undefined) return undefined;
  }
  return current;
}
