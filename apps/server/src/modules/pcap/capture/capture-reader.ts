/**
 * A streaming reader of packet captures: classic pcap (both byte orders, micro- and nanosecond timestamps)
 * and pcapng (section header, interface descriptions, enhanced, simple and obsolete packet blocks). Bytes
 * are pushed as they arrive; packets come out as soon as they are whole; only an unfinished record is kept.
 * A file that stops making sense stops the reader with the byte offset and the reason, and what was read
 * before it stays read.
 */

export interface CapturedPacket {
  /** Microseconds since the epoch (ns captures are rounded down). */
  timeUs: number;
  linkType: number;
  capturedLength: number;
  originalLength: number;
  data: Buffer;
}

export type CaptureFormat = 'pcap' | 'pcap-ns' | 'pcapng';

export interface CaptureProblem {
  offset: number;
  message: string;
}

/** The longest packet record we accept (jumbo frames and TSO segments fit; absurd lengths do not). */
export const MAX_RECORD_BYTES = 262_144;
/** The longest pcapng block we accept (options included). */
const MAX_BLOCK_BYTES = MAX_RECORD_BYTES + 64 * 1024;

export class CaptureError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
    this.name = 'CaptureError';
  }
}

interface Interface {
  linkType: number;
  snapLength: number;
  /** Timestamp units per second (if_tsresol; 10^6 by default). */
  unitsPerSecond: bigint;
}

export class CaptureReader {
  format: CaptureFormat | null = null;
  linkType: number | null = null;
  snapLength: number | null = null;
  /** What the file says about itself once its header is read. */
  version = '';
  private carry: Buffer = Buffer.alloc(0);
  /** File offset of carry[0]. */
  private offset = 0;
  private littleEndian = true;
  private interfaces: Interface[] = [];
  private sawSection = false;
  private stopped: CaptureProblem | null = null;

  constructor(private readonly onPacket: (packet: CapturedPacket) => void) {}

  get problem(): CaptureProblem | null {
    return this.stopped;
  }

  /** Feeds the next bytes of the file. Returns false once the file stopped making sense. */
  push(chunk: Buffer): boolean {
    if (this.stopped) return false;
    this.carry = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    try {
      this.drain();
    } catch (error) {
      if (!(error instanceof CaptureError)) throw error;
      this.stopped = { offset: error.offset, message: error.message };
      this.carry = Buffer.alloc(0);
      return false;
    }
    return true;
  }

  /** The end of the file: a record cut short is a problem (the packets before it are kept). */
  end(): void {
    if (this.stopped) return;
    if (this.format === null) {
      this.stopped = {
        offset: 0,
        message:
          this.carry.length === 0
            ? 'The file is empty.'
            : `The file is ${this.carry.length} bytes long, shorter than a capture file header.`,
      };
      return;
    }
    if (this.carry.length > 0)
      this.stopped = {
        offset: this.offset,
        message: `The file ends in the middle of a ${this.format === 'pcapng' ? 'block' : 'packet record'} at byte ${this.offset} (${this.carry.length} bytes of it present): the capture was cut short.`,
      };
  }

  private consume(bytes: number): void {
    this.carry = this.carry.subarray(bytes);
    this.offset += bytes;
  }

  private drain(): void {
    if (this.format === null && !this.readFileHeader()) return;
    if (this.format === 'pcapng') while (this.readBlock());
    else while (this.readRecord());
  }

  private readFileHeader(): boolean {
    if (this.carry.length < 4) return false;
    const magic = this.carry.readUInt32BE(0);
    if (magic === 0x0a0d0d0a) {
      this.format = 'pcapng';
      return true;
    }
    const classic: Record<number, [boolean, CaptureFormat]> = {
      0xa1b2c3d4: [false, 'pcap'],
      0xd4c3b2a1: [true, 'pcap'],
      0xa1b23c4d: [false, 'pcap-ns'],
      0x4d3cb2a1: [true, 'pcap-ns'],
    };
    const known = classic[magic];
    if (!known)
      throw new CaptureError(
        0,
        `This is not a packet capture: the file starts with 0x${magic.toString(16).padStart(8, '0')}, not a pcap or pcapng signature.`,
      );
    if (this.carry.length < 24) return false;
    [this.littleEndian] = known;
    const read16 = (at: number) => (this.littleEndian ? this.carry.readUInt16LE(at) : this.carry.readUInt16BE(at));
    const read32 = (at: number) => (this.littleEndian ? this.carry.readUInt32LE(at) : this.carry.readUInt32BE(at));
    this.version = `${read16(4)}.${read16(6)}`;
    const snapLength = read32(16);
    const linkType = read32(20) & 0x0fffffff;
    if (read16(4) !== 2)
      throw new CaptureError(4, `Unsupported pcap version ${this.version} (2.4 is the format's version).`);
    if (snapLength === 0 || snapLength > 0x7fffffff)
      throw new CaptureError(16, `The header's snapshot length ${snapLength} is impossible.`);
    this.format = known[1];
    this.snapLength = snapLength;
    this.linkType = linkType;
    this.consume(24);
    return true;
  }

  private readRecord(): boolean {
    if (this.carry.length < 16) return false;
    const read32 = (at: number) => (this.littleEndian ? this.carry.readUInt32LE(at) : this.carry.readUInt32BE(at));
    const seconds = read32(0);
    const fraction = read32(4);
    const captured = read32(8);
    const original = read32(12);
    const limit = Math.min(this.snapLength ?? MAX_RECORD_BYTES, MAX_RECORD_BYTES);
    if (captured > limit)
      throw new CaptureError(
        this.offset + 8,
        `The packet record at byte ${this.offset} claims ${captured} captured bytes, more than the snapshot length ${limit}: the file is damaged here.`,
      );
    if (fraction >= (this.format === 'pcap-ns' ? 1_000_000_000 : 1_000_000))
      throw new CaptureError(
        this.offset + 4,
        `The packet record at byte ${this.offset} has an impossible timestamp fraction (${fraction}): the file is damaged here.`,
      );
    if (this.carry.length < 16 + captured) return false;
    this.onPacket({
      timeUs: seconds * 1_000_000 + (this.format === 'pcap-ns' ? Math.floor(fraction / 1000) : fraction),
      linkType: this.linkType ?? 1,
      capturedLength: captured,
      originalLength: Math.max(original, captured),
      data: this.carry.subarray(16, 16 + captured),
    });
    this.consume(16 + captured);
    return true;
  }

  private readBlock(): boolean {
    if (this.carry.length < 12) return false;
    const type = this.carry.readUInt32BE(0) === 0x0a0d0d0a ? 0x0a0d0d0a : this.read32(0);
    if (type === 0x0a0d0d0a) {
      const byteOrder = this.carry.readUInt32LE(8);
      if (byteOrder === 0x1a2b3c4d) this.littleEndian = true;
      else if (byteOrder === 0x4d3c2b1a) this.littleEndian = false;
      else
        throw new CaptureError(this.offset + 8, `The section header at byte ${this.offset} has no byte-order magic.`);
    } else if (!this.sawSection)
      throw new CaptureError(this.offset, 'A pcapng file must start with a section header block.');
    const length = this.read32(4);
    if (length < 12 || length % 4 !== 0 || length > MAX_BLOCK_BYTES)
      throw new CaptureError(
        this.offset + 4,
        `The block at byte ${this.offset} has an impossible length (${length}): the file is damaged here.`,
      );
    if (this.carry.length < length) return false;
    if (this.read32(length - 4) !== length)
      throw new CaptureError(
        this.offset + length - 4,
        `The block at byte ${this.offset} does not end with its length: the file is damaged here.`,
      );
    const body = this.carry.subarray(8, length - 4);
    this.readBlockBody(type, body);
    this.consume(length);
    return true;
  }

  private read32(at: number, buffer = this.carry): number {
    return this.littleEndian ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at);
  }

  private read16(at: number, buffer: Buffer): number {
    return this.littleEndian ? buffer.readUInt16LE(at) : buffer.readUInt16BE(at);
  }

  private readBlockBody(type: number, body: Buffer): void {
    const at = this.offset;
    const short = (what: string) => new CaptureError(at, `The ${what} at byte ${at} is too short for its fields.`);
    switch (type) {
      case 0x0a0d0d0a: {
        if (body.length < 16) throw short('section header block');
        this.sawSection = true;
        this.interfaces = [];
        this.version = `${this.read16(4, body)}.${this.read16(6, body)}`;
        return;
      }
      case 1: {
        if (body.length < 8) throw short('interface description block');
        const linkType = this.read16(0, body);
        const snapLength = this.read32(4, body);
        let unitsPerSecond = 1_000_000n;
        // Options: code, length, value padded to 4 bytes; if_tsresol (9) sets the timestamp unit.
        for (let option = 8; option + 4 <= body.length;) {
          const code = this.read16(option, body);
          const size = this.read16(option + 2, body);
          if (code === 0) break;
          if (code === 9 && size >= 1 && option + 4 < body.length) {
            const resolution = body[option + 4] ?? 6;
            const exponent = BigInt(Math.min(resolution & 0x7f, 18));
            unitsPerSecond = resolution & 0x80 ? 2n ** exponent : 10n ** exponent;
          }
          option += 4 + Math.ceil(size / 4) * 4;
        }
        this.interfaces.push({ linkType, snapLength, unitsPerSecond });
        this.linkType ??= linkType;
        this.snapLength ??= snapLength;
        return;
      }
      case 6:
      case 2: {
        if (body.length < 20) throw short(type === 6 ? 'enhanced packet block' : 'packet block');
        const interfaceId = type === 6 ? this.read32(0, body) : this.read16(0, body);
        const face = this.interfaces[interfaceId];
        if (!face)
          throw new CaptureError(
            at,
            `The packet block at byte ${at} names interface ${interfaceId}, which was never described.`,
          );
        const units = (BigInt(this.read32(4, body)) << 32n) | BigInt(this.read32(8, body));
        const captured = this.read32(12, body);
        const original = this.read32(16, body);
        if (captured > MAX_RECORD_BYTES || 20 + captured > body.length)
          throw new CaptureError(
            at,
            `The packet block at byte ${at} claims ${captured} captured bytes, more than the block holds: the file is damaged here.`,
          );
        this.onPacket({
          timeUs: Number((units * 1_000_000n) / face.unitsPerSecond),
          linkType: face.linkType,
          capturedLength: captured,
          originalLength: Math.max(original, captured),
          data: body.subarray(20, 20 + captured),
        });
        return;
      }
      case 3: {
        if (body.length < 4) throw short('simple packet block');
        const face = this.interfaces[0];
        if (!face) throw new CaptureError(at, `The simple packet block at byte ${at} comes before any interface.`);
        const original = this.read32(0, body);
        const captured = Math.min(original, body.length - 4, face.snapLength || MAX_RECORD_BYTES);
        this.onPacket({
          timeUs: 0,
          linkType: face.linkType,
          capturedLength: captured,
          originalLength: original,
          data: body.subarray(4, 4 + captured),
        });
        return;
      }
      default:
        // Name resolution, statistics, custom and unknown blocks carry no packets.
        return;
    }
  }
}
