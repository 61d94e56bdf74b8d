import { describe, expect, it } from 'vitest';
import { APPCONFIG_REASONS, type AppConfigReason } from './appconfig.js';
import { TRAIT_BINDING_REASONS } from './binding.js';
import { TRAIT_STEP_REASONS } from './trait-step.js';
import { isCatalogued, type ReasonCatalog } from './entry.js';
import { RECONCILE_FAILURE_REASONS } from './reconcile-failure.js';
import { ROLLING_REASONS, type RollingReason } from './rolling.js';
import { SCALE_REASONS, type ScaleReason } from './scale.js';
import { troubleshootingGuide } from './troubleshooting.js';
import { WORKLOAD_REASONS, type WorkloadReason } from './workload.js';

const guide = troubleshootingGuide();

function sectionOf(title: string): string {
  const start = guide.indexOf(`## ${title}\n`);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end < 0 ? undefined : end);
}

describe('the troubleshooting guide', () => {
  it.each<[string, ReasonCatalog]>([
    ['ZookeeperWorkload', WORKLOAD_REASONS],
    ['ZookeeperScale', SCALE_REASONS],
    ['ZookeeperRolling', ROLLING_REASONS],
    ['ApplicationConfiguration', APPCONFIG_REASONS],
    ['Every kind', RECONCILE_FAILURE_REASONS],
  ])('has one row per reason of %s, saying what it means and what to do', (title, catalog) => {
    const section = sectionOf(title);
    for (const [reason, entry] of Object.entries(catalog)) {
      const rows = section.split('\n').filter((line) => line.startsWith(`| \`${reason}\` |`));
      expect(rows, reason).toHaveLength(1);
      expect(entry.means.length, reason).toBeGreaterThan(10);
      expect(entry.todo.length, reason).toBeGreaterThan(5);
      expect(entry.shownIn.length, reason).toBeGreaterThan(0);
      expect(rows[0]).toContain(entry.todo.replaceAll('|', '\\|'));
    }
  });

  it("lists the binding reasons under both traits, with the traits' own reasons", () => {
    for (const reason of Object.keys(TRAIT_BINDING_REASONS)) {
      expect(sectionOf('ZookeeperScale')).toContain(`| \`${reason}\` |`);
      expect(sectionOf('ZookeeperRolling')).toContain(`| \`${reason}\` |`);
      expect(sectionOf('ZookeeperWorkload')).not.toContain(`| \`${reason}\` |`);
    }
  });

  it('gives the same failure of a trait step the same reason under both traits', () => {
    for (const reason of Object.keys(TRAIT_STEP_REASONS)) {
      expect(SCALE_REASONS, reason).toHaveProperty(reason, TRAIT_STEP_REASONS[reason as keyof typeof TRAIT_STEP_REASONS]);
      expect(ROLLING_REASONS, reason).toHaveProperty(reason, TRAIT_STEP_REASONS[reason as keyof typeof TRAIT_STEP_REASONS]);
    }
  });

  it('narrows a reason read back from a stored condition only when the catalog has it', () => {
    expect(isCatalogued(SCALE_REASONS, 'QuorumAtRisk')).toBe(true);
    expect(isCatalogued(SCALE_REASONS, 'NoQuorumMargin')).toBe(false);
    expect(isCatalogued(ROLLING_REASONS, 'NoQuorumMargin')).toBe(true);
    expect(isCatalogued(ROLLING_REASONS, 'toString')).toBe(false);
  });

  it('types the reasons as the catalog keys, not as any string (the typecheck fails on an uncatalogued one)', () => {
    // @ts-expect-error: not in the workload catalog
    const workload: WorkloadReason = 'NoSuchReason';
    // @ts-expect-error: not in the scale catalog
    const scale: ScaleReason = 'NoSuchReason';
    // @ts-expect-error: not in the rolling catalog
    const rolling: RollingReason = 'NoSuchReason';
    // @ts-expect-error: not in the appconfig catalog
    const appconfig: AppConfigReason = 'NoSuchReason';
    expect([workload, scale, rolling, appconfig].every((reason) => !isCatalogued(WORKLOAD_REASONS, reason))).toBe(true);
  });
});
