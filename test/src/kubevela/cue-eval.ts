// Evaluates a KubeVela definition's CUE as KubeVela does, with the cue CLI built from its pinned Go module
// (test/cue/build.sh): the template or status policy, then `context` and `parameter`, in one file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtBy } from '../controllers/go-built.js';
import { runCommand } from '../controllers/command.js';

let binary: string | undefined;

export type CueResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** `cue export -e <expression>` of `cue` with `context` and `parameter` unified in. */
export async function evaluate(cue: string, context: unknown, parameter: unknown, expression: string): Promise<CueResult> {
  binary ??= builtBy('cue');
  const dir = mkdtempSync(join(tmpdir(), 'zk-oam-cue-'));
  try {
    const file = join(dir, 'definition.cue');
    writeFileSync(file, `${cue}\ncontext: ${JSON.stringify(context)}\nparameter: ${JSON.stringify(parameter)}\n`);
    const { code, stdout, stderr } = await runCommand(binary, ['export', file, '-e', expression, '--out', 'json']);
    return code === 0 ? { ok: true, value: JSON.parse(stdout) as unknown } : { ok: false, error: stderr.trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
