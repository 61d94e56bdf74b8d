// Recognising apiserver answers the agent tolerates (404 gone, 409 conflict or exists), and describing errors for logs.
import { ApiException } from '@kubernetes/client-node';

export function apiStatusCode(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

export function isNotFound(error: unknown): boolean {
  return apiStatusCode(error) === 404;
}

export function isConflict(error: unknown): boolean {
  return apiStatusCode(error) === 409;
}

export function describeError(error: unknown): string {
  if (error instanceof ApiException) {
    return `HTTP ${error.code}: ${summariseBody(error.body)}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function summariseBody(body: unknown): string {
  if (typeof body === 'string') {
    return body.slice(0, 300);
  }
  return JSON.stringify(body)?.slice(0, 300) ?? 'no body';
}
