// The console's REST API as the page uses it: the session cookie carries the caller's token, the page header marks
// each request as the page's own, and a refusal becomes an ApiError that says what the API server said.

export class ApiError extends Error {
  constructor(code, body) {
    super(body?.error?.message ?? `the console answered ${code}`);
    this.code = code;
    this.reason = body?.error?.reason;
    this.fields = body?.error?.fields ?? [];
  }
}

export async function api(method, path, body) {
  const headers = { 'x-zk-oam-console': '1', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
  const response = await fetch(`/api/v1${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const answer = text === '' ? undefined : JSON.parse(text);
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

/** The API path of a namespace's ensembles. */
export function ensemblesPath({ cluster, namespace }) {
  return `/clusters/${encodeURIComponent(cluster)}/namespaces/${encodeURIComponent(namespace)}/zookeepers`;
}

/** The API path of one ensemble, from its cluster, namespace and name. */
export function ensemblePath(target) {
  return `${ensemblesPath(target)}/${encodeURIComponent(target.name)}`;
}

/** The page's address of one ensemble (app.js reads it back). */
export function ensembleHash({ cluster, namespace, name }) {
  return `#/ensemble/${[cluster, namespace, name].map(encodeURIComponent).join('/')}`;
}

/** A Server-Sent Events stream; `handlers` maps event names to functions of the parsed data. Close it when leaving. */
export function listen(path, handlers) {
  const source = new EventSource(`/api/v1${path}`);
  for (const [name, handle] of Object.entries(handlers)) source.addEventListener(name, (message) => handle(JSON.parse(message.data)));
  return source;
}
