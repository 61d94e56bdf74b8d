// Settings that mean the same thing carry one name in every controller. A setting renamed for that is still read under
// its old name for one release, so that a manifest a user wrote keeps working: the old name's value is taken when the
// new name is unset, and the process warns, naming the new one.
import type { Logger } from 'pino';

/** A setting's old name and the one it has now. */
export interface RenamedSetting {
  readonly old: string;
  readonly now: string;
}

/** An old name found in the environment; `overridden` when the new name is set too, and wins. */
export interface OldSettingName extends RenamedSetting {
  readonly overridden: boolean;
}

/** The environment with each old name's value under its new name (where that is unset), and the old names it found. */
export function readRenamedSettings(
  env: Readonly<Record<string, string | undefined>>,
  renames: readonly RenamedSetting[],
): { readonly env: Readonly<Record<string, string | undefined>>; readonly oldNamesRead: readonly OldSettingName[] } {
  const oldNamesRead = renames.filter(({ old }) => env[old] !== undefined).map((rename) => ({ ...rename, overridden: env[rename.now] !== undefined }));
  const moved = oldNamesRead.filter(({ overridden }) => !overridden).map(({ old, now }) => [now, env[old]] as const);
  return { env: { ...env, ...Object.fromEntries(moved) }, oldNamesRead };
}

/** One warning per old name read, naming the new one. */
export function warnOfOldSettingNames(log: Logger, oldNamesRead: readonly OldSettingName[]): void {
  for (const { old, now, overridden } of oldNamesRead) {
    const outcome = overridden ? `ignored, since ${now} is set too` : `read as ${now} until the next release`;
    log.warn({ setting: old, renamedTo: now }, `the setting ${old} is renamed ${now}: ${outcome}`);
  }
}
