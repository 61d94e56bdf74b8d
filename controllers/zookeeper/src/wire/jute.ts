// ZooKeeper's wire encoding (jute): big-endian 32- and 64-bit integers, one-byte booleans, and buffers and strings
// prefixed with their length (-1 for none). Every packet goes out framed by its own length.

export class JuteWriter {
  private readonly parts: Buffer[] = [];

  int(value: number): this {
    const part = Buffer.alloc(4);
    part.writeInt32BE(value);
    return this.push(part);
  }

  long(value: bigint): this {
    const part = Buffer.alloc(8);
    part.writeBigInt64BE(value);
    return this.push(part);
  }

  bool(value: boolean): this {
    return this.push(Buffer.from([value ? 1 : 0]));
  }

  buffer(value: Buffer | undefined): this {
    if (value === undefined) return this.int(-1);
    return this.int(value.length).push(value);
  }

  string(value: string | undefined): this {
    return this.buffer(value === undefined ? undefined : Buffer.from(value, 'utf8'));
  }

  /** The packet with its length in front, as it goes on the wire. */
  framed(): Buffer {
    const body = Buffer.concat(this.parts);
    const length = Buffer.alloc(4);
    length.writeInt32BE(body.length);
    return Buffer.concat([length, body]);
  }

  private push(part: Buffer): this {
    this.parts.push(part);
    return this;
  }
}

/** Thrown when a packet ends before the field being read. */
export class TruncatedPacketError extends Error {
  override readonly name = 'TruncatedPacketError';
}

export class JuteReader {
  private offset = 0;

  constructor(private readonly packet: Buffer) {}

  int(): number {
    this.need(4);
    const value = this.packet.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  long(): bigint {
    this.need(8);
    const value = this.packet.readBigInt64BE(this.offset);
    this.offset += 8;
    return value;
  }

  bool(): boolean {
    this.need(1);
    const value = this.packet[this.offset] !== 0;
    this.offset += 1;
    return value;
  }

  buffer(): Buffer | undefined {
    const length = this.int();
    if (length < 0) return undefined;
    this.need(length);
    const value = this.packet.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  string(): string | undefined {
    return this.buffer()?.toString('utf8');
  }

  get remaining(): number {
    return this.packet.length - this.offset;
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.packet.length) {
      throw new TruncatedPacketError(`packet of ${this.packet.length} bytes ends before byte ${this.offset + bytes}`);
    }
  }
}

/** Splits a byte stream into length-framed packets. */
export class FrameSplitter {
  private pending = Buffer.alloc(0);

  /** The packets completed by `chunk`, without their length prefix. */
  push(chunk: Buffer): Buffer[] {
    this.pending = Buffer.concat([this.pending, chunk]);
    const packets: Buffer[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readInt32BE(0);
      if (this.pending.length < 4 + length) break;
      packets.push(this.pending.subarray(4, 4 + length));
      this.pending = this.pending.subarray(4 + length);
    }
    return packets;
  }
}
