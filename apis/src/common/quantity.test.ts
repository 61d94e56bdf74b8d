// Quantity parsing: the values the heap derivation and the requests-below-limits check rely on.
import { describe, expect, it } from 'vitest';
import { compareQuantities, InvalidQuantityError, quantitySchema, quantityValue } from './quantity.js';

describe('quantityValue', () => {
  it.each([
    ['1Gi', 2 ** 30],
    ['512Mi', 512 * 2 ** 20],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['500m', 0.5],
    ['2', 2],
    [3, 3],
    ['1k', 1000],
    ['1e3', 1000],
    ['1E-3', 0.001],
    ['.5', 0.5],
  ] as const)('reads %s as %d', (quantity, value) => {
    expect(quantityValue(quantity)).toBeCloseTo(value, 9);
  });

  it.each(['', '1GB', 'Gi', '-1Gi', '1..0', 'abc'])('rejects %j', (quantity) => {
    expect(() => quantityValue(quantity)).toThrow(InvalidQuantityError);
  });
});

describe('compareQuantities', () => {
  it('orders binary and decimal suffixes by value', () => {
    expect(compareQuantities('1Gi', '1G')).toBe(1);
    expect(compareQuantities('1000m', 1)).toBe(0);
    expect(compareQuantities('512Mi', '1Gi')).toBe(-1);
  });
});

describe('quantitySchema', () => {
  it('accepts numbers and quantity strings and rejects the rest', () => {
    expect(quantitySchema.safeParse(2).success).toBe(true);
    expect(quantitySchema.safeParse('250m').success).toBe(true);
    expect(quantitySchema.safeParse('2 GB').success).toBe(false);
    expect(quantitySchema.safeParse(-1).success).toBe(false);
  });
});
