// Field handling shared by the four-letter-word parsers: "key<separator>value" lines and numeric values.
import { FourLetterWordParseError } from './errors.js';

export function splitKeyValueLines(text: string, separator: string | RegExp): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      continue;
    }
    const match = typeof separator === 'string' ? indexSplit(line, separator) : regexSplit(line, separator);
    if (match !== undefined) {
      entries.set(match[0].trim(), match[1].trim());
    }
  }
  return entries;
}

function indexSplit(line: string, separator: string): [string, string] | undefined {
  const at = line.indexOf(separator);
  return at < 0 ? undefined : [line.slice(0, at), line.slice(at + separator.length)];
}

function regexSplit(line: string, separator: RegExp): [string, string] | undefined {
  const match = separator.exec(line);
  if (match === null) {
    return undefined;
  }
  return [line.slice(0, match.index), line.slice(match.index + match[0].length)];
}

export interface FieldReader {
  values: Map<string, string>;
  required(key: string): string;
  number(key: string): number;
  optionalNumber(key: string): number | undefined;
}

/** Reads one answer's fields, naming the word and the key in every parse error. */
export function readFields(word: string, text: string, separator: string | RegExp): FieldReader {
  const values = splitKeyValueLines(text, separator);
  const required = (key: string): string => {
    const value = values.get(key);
    if (value === undefined) {
      throw new FourLetterWordParseError(word, `missing "${key}"`, text);
    }
    return value;
  };
  return {
    values,
    required,
    number: (key) => parseCount(word, key, required(key), text),
    optionalNumber: (key) => {
      const value = values.get(key);
      return value === undefined ? undefined : parseCount(word, key, value, text);
    },
  };
}

/** Parses a decimal number field, naming the word and key when it is not one. */
export function parseCount(word: string, key: string, value: string, text: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number)) {
    throw new FourLetterWordParseError(word, `"${key}" is not a number: "${value}"`, text);
  }
  return number;
}
