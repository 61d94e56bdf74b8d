import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../bed/paths.js';
import { changelogSection, MissingChangelogEntryError, unreleasedRestartsEnsembles } from './changelog.js';
import { releaseVersion } from './version.js';

const changelog = ['# Changelog', '', '## [Unreleased]', '', '- next', '', '## [0.2.0] - 2026-12-01', '', '### Added', '- b', '', '## [0.1.0] - 2026-11-28', '', '- a', ''].join('\n');

describe('changelogSection', () => {
  it('takes the section of the version, up to the next release heading', () => {
    expect(changelogSection(changelog, '0.2.0')).toBe('### Added\n- b');
    expect(changelogSection(changelog, '0.1.0')).toBe('- a');
  });

  it('refuses a version with no section, or an empty one, saying what to do', () => {
    expect(() => changelogSection(changelog, '0.3.0')).toThrow(MissingChangelogEntryError);
    expect(() => changelogSection('## [0.3.0]\n\n## [0.2.0]\n- b', '0.3.0')).toThrow(/move what is under \[Unreleased\]/);
  });

  it('finds the section of the version the repository is at', () => {
    const repo = repoRoot();
    expect(changelogSection(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'), releaseVersion(repo))).not.toBe('');
  });
});

describe('unreleasedRestartsEnsembles', () => {
  it('is true only when the [Unreleased] section itself has a "### Restarts ensembles" heading', () => {
    expect(unreleasedRestartsEnsembles(changelog)).toBe(false);
    expect(unreleasedRestartsEnsembles(changelog.replace('- next', '### Restarts ensembles\n- the probes'))).toBe(true);
    expect(unreleasedRestartsEnsembles(changelog.replace('### Added', '### Restarts ensembles'))).toBe(false);
    expect(unreleasedRestartsEnsembles('# Changelog\n\n## [0.1.0]\n### Restarts ensembles\n- a')).toBe(false);
  });
});
