// Reads a request's JSON body, bounded in size.
import type { IncomingMessage } from 'node:http';
import { badRequest, ConsoleProblem } from './problem.js';

/** Larger than any ZookeeperWorkload a person writes, small enough that no request can fill the console's memory. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The parsed JSON body; an empty body is `{}` (scale and restart may carry nothing). */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ConsoleProblem(413, 'RequestEntityTooLarge', `the body is larger than ${String(MAX_BODY_BYTES)} bytes`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(`the body is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
