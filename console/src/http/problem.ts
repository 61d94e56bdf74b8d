// The console's error answers: a status code and a body that says what was wrong, and for a bad request which fields.
import type { FieldProblem } from '@zk-oam/apis';
import { KubeApiError } from '@zk-oam/runtime';

export interface ErrorBody {
  readonly error: {
    readonly code: number;
    readonly reason: string;
    readonly message: string;
    /** For a bad request: each rejected field, by its path in the request body. */
    readonly fields?: readonly FieldProblem[];
  };
}

/** An answer the console itself decides to give instead of a result. */
export class ConsoleProblem extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly fields?: readonly FieldProblem[],
  ) {
    super(message);
    this.name = 'ConsoleProblem';
  }
}

export function badRequest(message: string, fields?: readonly FieldProblem[]): ConsoleProblem {
  return new ConsoleProblem(400, 'BadRequest', message, fields);
}

export function notFound(message: string): ConsoleProblem {
  return new ConsoleProblem(404, 'NotFound', message);
}

export interface ErrorAnswer {
  readonly code: number;
  readonly body: ErrorBody;
}

/**
 * What the caller gets for a failure: the console's own problem as it is; the API server's refusal (4xx) with its
 * code, reason and message, so RBAC's 403 and a conflict's 409 read as the API server said them; the API server
 * failing (5xx) or unreachable is a 502; anything else is a 500 without detail (it is logged instead).
 */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof ConsoleProblem) {
    const fields = error.fields === undefined ? {} : { fields: error.fields };
    return { code: error.code, body: { error: { code: error.code, reason: error.reason, message: error.message, ...fields } } };
  }
  if (error instanceof KubeApiError) {
    const code = error.code >= 400 && error.code < 500 ? error.code : 502;
    return { code, body: { error: { code, reason: error.reason, message: error.detail } } };
  }
  if (isConnectionFailure(error)) {
    return { code: 502, body: { error: { code: 502, reason: 'BadGateway', message: 'the Kubernetes API server could not be reached' } } };
  }
  return { code: 500, body: { error: { code: 500, reason: 'InternalError', message: 'the console failed; see its log' } } };
}

function isConnectionFailure(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && /^(ECONN|ENOTFOUND|ETIMEDOUT|UND_ERR)/.test(error.code);
}
