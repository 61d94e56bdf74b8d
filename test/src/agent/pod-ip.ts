// Stable, collision-free loopback pod IPs: namespace/name hashed into 127.64.0.0/10, probing on collision. The hash is
// salted with the agent's scope (its directory), so that beds running side by side give the same pod name different IPs.
import { createHash } from 'node:crypto';

const baseAddress = (127 << 24) | (64 << 16);
const addressCount = 1 << 22;

/** Hands out one IP per pod key ("namespace/name"); the same key in the same scope gets the same IP every time. */
export class PodIpAllocator {
  private readonly byKey = new Map<string, number>();
  private readonly taken = new Set<number>();

  constructor(private readonly scope: string) {}

  ipFor(key: string): string {
    const known = this.byKey.get(key);
    if (known !== undefined) {
      return formatIpv4(baseAddress + known);
    }
    let offset = hashOffset(`${this.scope}\0${key}`);
    while (this.taken.has(offset) || !usableOffset(offset)) {
      offset = (offset + 1) % addressCount;
    }
    this.byKey.set(key, offset);
    this.taken.add(offset);
    return formatIpv4(baseAddress + offset);
  }
}

function hashOffset(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) % addressCount;
}

/** Skips addresses ending in .0 or .255, which some tools treat as network or broadcast addresses. */
function usableOffset(offset: number): boolean {
  const lastOctet = offset & 0xff;
  return lastOctet !== 0 && lastOctet !== 255;
}

function formatIpv4(address: number): string {
  return [24, 16, 8, 0].map((shift) => (address >>> shift) & 0xff).join('.');
}
