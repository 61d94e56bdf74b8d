// The caller's identity: the bearer token of the Authorization header, passed through to the API server as it is.

/** The token of `Authorization: Bearer <token>`, or undefined when there is none (no anonymous access). */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
