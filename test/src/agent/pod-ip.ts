// Stable, collision-free loopback pod IPs: namespace/name hashed into 127.64.0.0/10, probing on collision.
import { createHash } from 'node:crypto';

const baseAddress = (127 << 24) | (64 << 16);
const addressCount = 1 << 22;

/** Hands out one IP per pod key ("namespace/name"); the same key gets the same IP for the allocator's life. */
export class PodIpAllocator {
  private readonly byKey = new Map<string, number>();
  private readonly taken = new Set<number>();

  ipFor(key: string): string {
    const known = this.byKey.get(key);
    if (known !== undefined) {
      return formatIpv4(baseAddress + known);
    }
    let offset = hashOffset(key);
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
