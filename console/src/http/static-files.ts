// The web page's files, read once at start from one flat directory and served as they are: no build step, no
// template. The policy headers let the page load only its own scripts and styles and talk only to its own origin.
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const POLICY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

export interface StaticFile {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** The files of `dir` by their URL path (`/app.js`); `index.html` is also `/`. Files of other types are not served. */
export async function loadStaticFiles(dir: string): Promise<ReadonlyMap<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  for (const name of await readdir(dir)) {
    const type = CONTENT_TYPES[extname(name)];
    if (type === undefined) continue;
    const file = { headers: { 'Content-Type': type, 'Cache-Control': 'no-cache', ...POLICY_HEADERS }, body: await readFile(join(dir, name)) };
    files.set(`/${name}`, file);
    if (name === 'index.html') files.set('/', file);
  }
  return files;
}
