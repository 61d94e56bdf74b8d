// The note of an Event that names several children written by one verb: a sentence per child, and back.

const SEPARATOR = '; ';

export function joinSentences(sentences: readonly string[]): string {
  return sentences.join(SEPARATOR);
}

/** The sentences of an Event's note, one per child (for a reader that looks for one child). */
export function noteSentences(note: string): string[] {
  return note.split(SEPARATOR);
}
