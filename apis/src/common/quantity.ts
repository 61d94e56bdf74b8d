// Kubernetes resource quantities ("500m", "1Gi", 2): the zod schema, and a parser for comparing them.
import { z } from 'zod';
import { intOrString } from './structural.js';

/** The apiserver's quantity grammar, without a sign: a negative size or limit is never meaningful here. */
export const QUANTITY_PATTERN =
  /^\+?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;

/** A quantity as written in YAML: a number or a string such as "512Mi". */
export const quantitySchema = intOrString(
  z.union([z.int().min(0), z.string().regex(QUANTITY_PATTERN, 'expected a Kubernetes quantity such as 500m or 1Gi')]),
);
export type Quantity = z.infer<typeof quantitySchema>;

const BINARY_SUFFIXES: Readonly<Record<string, number>> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

export class InvalidQuantityError extends Error {
  constructor(readonly quantity: Quantity) {
    super(`not a Kubernetes quantity: ${JSON.stringify(quantity)}`);
    this.name = 'InvalidQuantityError';
  }
}

/**
 * The value of a quantity in base units (bytes, cores) as a float: exact enough to compare sizes
 * and derive a heap, not to round-trip.
 */
export function quantityValue(quantity: Quantity): number {
  if (typeof quantity === 'number') return quantity;
  const match = /^\+?([0-9]*\.?[0-9]*)([eE][+-]?[0-9.]+|[KMGTPE]i|[numkMGTPE])?$/.exec(quantity);
  const digits = match?.[1];
  if (match === null || digits === undefined || digits === '' || digits === '.' || !QUANTITY_PATTERN.test(quantity)) {
    throw new InvalidQuantityError(quantity);
  }
  const suffix = match[2] ?? '';
  const mantissa = Number(digits);
  if (suffix.startsWith('e') || suffix.startsWith('E')) return mantissa * 10 ** Number(suffix.slice(1));
  const multiplier = BINARY_SUFFIXES[suffix] ?? DECIMAL_SUFFIXES[suffix];
  if (multiplier === undefined) throw new InvalidQuantityError(quantity);
  return mantissa * multiplier;
}

/** Negative, zero or positive as `a` is below, equal to or above `b` (CEL's `quantity(a).compareTo(quantity(b))`). */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return Math.sign(quantityValue(a) - quantityValue(b));
}
