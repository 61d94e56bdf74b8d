// Release notes come from CHANGELOG.md, kept by hand in the repository (keepachangelog.com's layout): a `## [x.y.z]`
// heading per release, newest first, above it `## [Unreleased]`. A release without its own section is refused: its
// notes would be empty.

export class MissingChangelogEntryError extends Error {
  override readonly name = 'MissingChangelogEntryError';
  constructor(version: string) {
    super(`CHANGELOG.md has no "## [${version}]" section: move what is under [Unreleased] into one before releasing`);
  }
}

const headingPattern = /^## \[([^\]]+)\]/;

/** The body of `version`'s section: from below its heading to the next `## ` heading, trimmed. */
export function changelogSection(changelog: string, version: string): string {
  const body = sectionBody(changelog, version);
  if (body === undefined || body === '') throw new MissingChangelogEntryError(version);
  return body;
}

/**
 * Whether what is under `## [Unreleased]` restarts ensembles on upgrade: it lists a change to the pod template under a
 * `### Restarts ensembles` heading (docs/releasing.md).
 */
export function unreleasedRestartsEnsembles(changelog: string): boolean {
  return /^### Restarts ensembles\s*$/m.test(sectionBody(changelog, 'Unreleased') ?? '');
}

function sectionBody(changelog: string, heading: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => headingPattern.exec(line)?.[1] === heading);
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .join('\n')
    .trim();
}
