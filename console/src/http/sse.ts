// Server-Sent Events framing (the EventSource wire format).

/** One event: its type, its data as JSON on one `data:` line, and an id the client sends back on reconnect. */
export function sseFrame(event: string, data: unknown, id?: string): string {
  const idLine = id === undefined ? '' : `id: ${id.replace(/[\r\n]/g, '')}\n`;
  return `${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: keeps idle connections (and proxies between) from timing out; EventSource ignores it. */
export const SSE_KEEPALIVE = ': keep-alive\n\n';

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;
