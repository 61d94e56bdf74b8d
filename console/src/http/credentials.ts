// The caller's identity: a bearer token, passed through to the API server as it is. Programs send it in the
// Authorization header; the web page, which cannot set headers on an EventSource, holds it in an HttpOnly cookie set
// by `POST /api/v1/session`. A cookie is sent by the browser on its own, so a request that changes something with
// the cookie alone must also carry a header no cross-site form or link can add.
import type { IncomingHttpHeaders } from 'node:http';
import { ConsoleProblem } from './problem.js';

export const TOKEN_COOKIE = 'zkoam_token';
/** Sent by the web page with each request; a page of another site can send neither it nor (SameSite) the cookie. */
export const PAGE_HEADER = 'x-zk-oam-console';

/** The token of `Authorization: Bearer <token>`, or undefined when there is none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return decodeURIComponent(pair.slice(at + 1).trim());
  }
  return undefined;
}

/**
 * The caller's token: the Authorization header's, else the session cookie's (refused on a request that changes
 * something without the page's header); undefined when there is none (no anonymous access).
 */
export function callerToken(method: string, headers: IncomingHttpHeaders): string | undefined {
  const fromHeader = bearerToken(headers.authorization);
  if (fromHeader !== undefined) return fromHeader;
  const fromCookie = cookieValue(headers.cookie, TOKEN_COOKIE);
  if (fromCookie === undefined || fromCookie === '') return undefined;
  if (method !== 'GET' && headers[PAGE_HEADER] === undefined) {
    throw new ConsoleProblem(403, 'MissingPageHeader', `a ${method} with the session cookie alone must carry the ${PAGE_HEADER} header (cross-site requests cannot)`);
  }
  return fromCookie;
}

/** Set-Cookie for a session holding `token` (empty: the session ends). Secure when the console is reached over HTTPS. */
export function sessionCookie(token: string, secure: boolean): string {
  const attributes = ['Path=/api/v1', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : []), ...(token === '' ? ['Max-Age=0'] : [])];
  return [`${TOKEN_COOKIE}=${encodeURIComponent(token)}`, ...attributes].join('; ');
}
