// Parser for `ruok`: "imok" only says the process answers, not that it is in the quorum.
export function parseRuok(text: string): { ok: boolean } {
  return { ok: text.trim() === 'imok' };
}
