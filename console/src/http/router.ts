// Matches a method and a path against route patterns such as `/clusters/{cluster}/zookeepers`.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RoutePattern {
  readonly method: Method;
  /** Literal segments and `{name}` parameters, one per segment. */
  readonly path: string;
}

export interface Match<R> {
  readonly route: R;
  readonly params: Record<string, string>;
}

/** The parameter names of a pattern, in order. */
export function parameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
}

/** A path segment decoded; undefined when it is not valid percent-encoding. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const expected = pattern.split('/');
  const actual = path.split('/');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index] ?? '';
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (name === undefined) {
      if (segment !== value) return undefined;
    } else {
      const decoded = decodeSegment(value);
      if (decoded === undefined || decoded === '') return undefined;
      params[name] = decoded;
    }
  }
  return params;
}

/**
 * The route for `method` and `path`; `methodNotAllowed` when the path is known but not with that method, undefined
 * when no route has the path.
 */
export function matchRoute<R extends RoutePattern>(routes: readonly R[], method: string, path: string): Match<R> | 'methodNotAllowed' | undefined {
  let pathKnown = false;
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (params === undefined) continue;
    if (route.method === method) return { route, params };
    pathKnown = true;
  }
  return pathKnown ? 'methodNotAllowed' : undefined;
}
