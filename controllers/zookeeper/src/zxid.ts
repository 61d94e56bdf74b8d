// ZooKeeper transaction ids: a 64-bit number whose high 32 bits are the leader epoch and low 32 bits a counter.
export interface Zxid {
  value: bigint;
  epoch: number;
  counter: number;
}

export class ZxidParseError extends Error {
  constructor(readonly text: string) {
    super(`not a zxid: ${JSON.stringify(text)}`);
    this.name = 'ZxidParseError';
  }
}

const LOW_32_BITS = 0xffff_ffffn;

/** Parses `0x100000004` (as printed by srvr, mntr and the config `version=` line without the 0x). */
export function parseZxid(text: string): Zxid {
  const trimmed = text.trim();
  const hex = trimmed.startsWith('0x') || trimmed.startsWith('0X') ? trimmed.slice(2) : trimmed;
  if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) {
    throw new ZxidParseError(text);
  }
  return zxidFromValue(BigInt(`0x${hex}`));
}

export function zxidFromValue(value: bigint): Zxid {
  return { value, epoch: Number(value >> 32n), counter: Number(value & LOW_32_BITS) };
}

export function formatZxid(zxid: Zxid): string {
  return `0x${zxid.value.toString(16)}`;
}
