// Zxid parsing: epoch and counter split, the forms srvr and the config version use.
import { describe, expect, it } from 'vitest';
import { formatZxid, parseZxid, ZxidParseError } from './zxid.js';

describe('parseZxid', () => {
  it.each([
    ['0x0', 0n, 0, 0],
    ['0x100000000', 0x1_0000_0000n, 1, 0],
    ['0x300000007', 0x3_0000_0007n, 3, 7],
    ['100000004', 0x1_0000_0004n, 1, 4],
    ['0x1ffffffff', 0x1_ffff_ffffn, 1, 0xffff_ffff],
  ])('reads %s as epoch %#s and counter', (text, value, epoch, counter) => {
    expect(parseZxid(text)).toEqual({ value, epoch, counter });
  });

  it('formats back to the 0x form srvr prints', () => {
    expect(formatZxid(parseZxid('100000004'))).toBe('0x100000004');
  });

  it.each(['', '0x', 'zxid', '0x12345678901234567'])('rejects %j', (text) => {
    expect(() => parseZxid(text)).toThrow(ZxidParseError);
  });
});
