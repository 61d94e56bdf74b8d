// A user who clones the repository finds every document a README or docs/ page links to: each relative link resolves
// to a file or directory inside the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function markdownIn(directory: string, pick: (entry: string) => string | undefined): string[] {
  const absolute = join(repoRoot, directory);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute)
    .flatMap((entry) => pick(entry) ?? [])
    .filter((file) => existsSync(join(repoRoot, file)));
}

const documents = [
  'README.md',
  'deploy/README.md',
  ...markdownIn('docs', (entry) => (entry.endsWith('.md') ? `docs/${entry}` : undefined)),
  ...markdownIn('controllers', (entry) => `controllers/${entry}/README.md`),
];

/** Targets of inline Markdown links `[text](target)` that are neither URLs nor anchors within the page. */
function relativeLinks(markdown: string): string[] {
  // Code spans are not links, though a regular expression in one may look like `[a-z](...)`.
  const prose = markdown.replaceAll(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

/** Where a link from `document` points, or why it points nowhere a clone has. */
function resolveLink(document: string, target: string): { path: string; problem?: string } {
  const path = resolve(join(repoRoot, dirname(document)), target.split('#')[0] ?? '');
  const inside = relative(repoRoot, path);
  if (inside.startsWith(`..${sep}`) || inside === '..') return { path: inside, problem: 'outside the repository' };
  if (!existsSync(path)) return { path: inside, problem: 'missing' };
  return { path: inside };
}

describe('links in the repository\'s documents', () => {
  it('finds the documents to check', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'deploy/README.md', 'docs/architecture.md', 'controllers/runtime/README.md']));
  });

  it('reads the link targets of a page, leaving out URLs and anchors', () => {
    expect(relativeLinks('[a](docs/a.md) [b](https://example.org/x) [c](#here) [d](../up.md#part "title") [e](mailto:x@y)')).toEqual(['docs/a.md', '../up.md#part']);
  });

  it.each(documents)('%s links only to files inside the repository', (document) => {
    const broken = relativeLinks(readFileSync(join(repoRoot, document), 'utf8'))
      .map((target) => ({ target, ...resolveLink(document, target) }))
      .filter((link) => link.problem !== undefined);
    expect(broken).toEqual([]);
  });
});
