import { promisify } from 'node:util';
import { crc32, deflateRawSync, inflateRaw, inflateRawSync } from 'node:zlib';

/**
 * Zip archives, read as hostile and written plainly. Reading holds the archive to its own central directory
 * from the first byte: no Zip64, no encryption, one disk, nothing before the first entry, between entries or
 * after the end record; each local header the same as its directory entry; every entry inflated once, capped
 * at its declared size, and coming to exactly that size and CRC. Uploads that are zips (hours workbooks,
 * backups) go through here before any other reader sees them. `ZipReader` reads an archive entry by entry,
 * each unpacked off the event loop when asked, for archives too large to unpack in one piece.
 */

export interface ZipLimits {
  maxEntries: number;
  /** The most the entries may unpack to, together. */
  maxUnzippedBytes: number;
}

/** What a reader entry by entry also holds an archive to. */
export interface ZipReadLimits extends ZipLimits {
  /** The most an entry may unpack to (an archive's index may hold more than its other entries). */
  maxEntryBytes: (entry: ZipEntry, entries: number) => number;
  /** The most the entries may unpack to together, per byte of the archive. */
  maxRatio: number;
}

export type ZipProblem = 'damaged' | 'too-large' | 'too-compressed';

const PROBLEMS: Record<ZipProblem, string> = {
  damaged: 'The archive is damaged.',
  'too-large': 'The archive unpacks to more than this upload may hold.',
  'too-compressed': 'The archive unpacks to many times its own size.',
};

/** Why an archive was refused (and which entry, when one entry is to blame); each upload says it in its own words. */
export class ZipError extends Error {
  constructor(
    readonly problem: ZipProblem,
    readonly entry?: string,
  ) {
    super(PROBLEMS[problem]);
    this.name = 'ZipError';
  }
}

export interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const damaged = () => new ZipError('damaged');
const startsAsZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

/** Whether the bytes begin as a zip (a local file header): what a file is, by its content. */
export const looksLikeZip = startsAsZip;

/** The end-of-central-directory record: where the directory starts, how long it is, how many entries. */
function endRecord(bytes: Buffer): { at: number; count: number; size: number; offset: number } {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (bytes.readUInt32LE(at) !== 0x06054b50) continue;
    // Nothing may follow the record but its own comment: no second archive hiding behind the first.
    if (at + 22 + bytes.readUInt16LE(at + 20) !== bytes.length) throw damaged();
    // One disk only; both entry counts agree.
    if (bytes.readUInt16LE(at + 4) !== 0 || bytes.readUInt16LE(at + 6) !== 0) throw damaged();
    if (bytes.readUInt16LE(at + 8) !== bytes.readUInt16LE(at + 10)) throw damaged();
    return {
      at,
      count: bytes.readUInt16LE(at + 10),
      size: bytes.readUInt32LE(at + 12),
      offset: bytes.readUInt32LE(at + 16),
    };
  }
  throw damaged();
}

/**
 * The zip's central directory, checked: no Zip64 or encryption, a sane number of entries, sizes that add up
 * within the limit, and a directory that ends exactly where the end record begins.
 */
export function zipDirectory(bytes: Buffer, limits: ZipLimits): { entries: ZipEntry[]; directoryAt: number } {
  if (!startsAsZip(bytes)) throw damaged();
  const end = endRecord(bytes);
  if (end.count > limits.maxEntries || end.offset + end.size !== end.at) throw damaged();
  const entries: ZipEntry[] = [];
  let offset = end.offset;
  let total = 0;
  for (let index = 0; index < end.count; index++) {
    if (offset + 46 > end.at || bytes.readUInt32LE(offset) !== 0x02014b50) throw damaged();
    const nameLength = bytes.readUInt16LE(offset + 28);
    const entry = {
      flags: bytes.readUInt16LE(offset + 8),
      method: bytes.readUInt16LE(offset + 10),
      crc: bytes.readUInt32LE(offset + 16),
      compressedSize: bytes.readUInt32LE(offset + 20),
      size: bytes.readUInt32LE(offset + 24),
      name: bytes.toString('utf8', offset + 46, offset + 46 + nameLength),
      localOffset: bytes.readUInt32LE(offset + 42),
    };
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff || entry.flags & 0x1) throw damaged();
    total += entry.size;
    if (total > limits.maxUnzippedBytes) throw new ZipError('too-large');
    entries.push(entry);
    offset += 46 + nameLength + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  if (offset !== end.at) throw damaged();
  return { entries, directoryAt: end.offset };
}

/** An entry where the archive holds it: its data starts at `dataStart`. */
export interface ZipLaidOutEntry extends ZipEntry {
  dataStart: number;
}

/**
 * Walks the local headers from the first byte and holds each to the central directory (the same entries in
 * the same places, names, methods, flags and sizes, a data descriptor that says the same, no gap and nothing
 * extra before the directory); answers the entries in the archive's order, nothing unpacked yet.
 */
function zipLayout(bytes: Buffer, limits: ZipLimits): ZipLaidOutEntry[] {
  const { entries, directoryAt } = zipDirectory(bytes, limits);
  const ordered = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  const laidOut: ZipLaidOutEntry[] = [];
  let expected = 0;
  for (const entry of ordered) {
    const header = entry.localOffset;
    if (header !== expected || header + 30 > directoryAt || bytes.readUInt32LE(header) !== 0x04034b50) throw damaged();
    const flags = bytes.readUInt16LE(header + 6);
    const nameLength = bytes.readUInt16LE(header + 26);
    const start = header + 30 + nameLength + bytes.readUInt16LE(header + 28);
    if (
      flags !== entry.flags ||
      bytes.readUInt16LE(header + 8) !== entry.method ||
      bytes.toString('utf8', header + 30, header + 30 + nameLength) !== entry.name
    )
      throw damaged();
    const described = (flags & 0x8) !== 0;
    if (
      !described &&
      (bytes.readUInt32LE(header + 18) !== entry.compressedSize || bytes.readUInt32LE(header + 22) !== entry.size)
    )
      throw damaged();
    let next = start + entry.compressedSize;
    if (next > directoryAt) throw damaged();
    if (described) {
      // crc, compressed size, size; with or without the optional signature.
      const signed = next + 4 <= directoryAt && bytes.readUInt32LE(next) === 0x08074b50;
      const at = signed ? next + 4 : next;
      if (
        at + 12 > directoryAt ||
        bytes.readUInt32LE(at) !== entry.crc ||
        bytes.readUInt32LE(at + 4) !== entry.compressedSize ||
        bytes.readUInt32LE(at + 8) !== entry.size
      )
        throw damaged();
      next = at + 12;
    }
    if (entry.method !== 0 && entry.method !== 8) throw damaged();
    laidOut.push({ ...entry, dataStart: start });
    expected = next;
  }
  if (expected !== directoryAt) throw damaged();
  return laidOut;
}

/** An entry's content as stored, checked against its declared size and CRC. */
function verified(entry: ZipEntry, content: Buffer): Buffer {
  if (content.length !== entry.size || crc32(content) !== entry.crc) throw damaged();
  return content;
}

/**
 * Checks the archive as `zipLayout` does, inflates every entry once with a cap at its declared size, checks
 * its size and CRC, and hands it to `visit` in the archive's order. For small archives (workbooks): every
 * entry is unpacked here, on the caller's thread.
 */
export function unzipVerified(
  bytes: Buffer,
  limits: ZipLimits,
  visit: (entry: ZipEntry, content: Buffer) => void = () => undefined,
): ZipEntry[] {
  const laidOut = zipLayout(bytes, limits);
  for (const entry of laidOut) {
    const data = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    let content: Buffer;
    try {
      content = entry.method === 0 ? data : inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
    } catch {
      throw damaged();
    }
    const { dataStart: _dataStart, ...plain } = entry;
    visit(plain, verified(entry, content));
  }
  return laidOut.map(({ dataStart: _dataStart, ...entry }) => entry);
}

const inflateRawAsync = promisify(inflateRaw);

/**
 * An archive read entry by entry: opened, its directory and local headers are checked and its declared sizes
 * held to the limits (the whole, each entry, and the ratio of the whole to the archive's own size) before
 * anything is unpacked; `read` then unpacks one entry off the event loop (zlib's thread pool, in small steps),
 * stops at the size it declared, and checks its size and CRC. Memory holds the archive and one entry.
 */
export class ZipReader {
  private constructor(
    private readonly bytes: Buffer,
    /** In the archive's order. */
    readonly entries: readonly ZipLaidOutEntry[],
  ) {}

  static open(bytes: Buffer, limits: ZipReadLimits): ZipReader {
    const entries = zipLayout(bytes, limits);
    const total = entries.reduce((sum, entry) => sum + entry.size, 0);
    if (total > limits.maxRatio * bytes.length) throw new ZipError('too-compressed');
    const large = entries.find((entry) => entry.size > limits.maxEntryBytes(entry, entries.length));
    if (large) throw new ZipError('too-large', large.name);
    return new ZipReader(bytes, entries);
  }

  async read(entry: ZipLaidOutEntry): Promise<Buffer> {
    const data = this.bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    if (entry.method === 0) return verified(entry, data);
    let content: Buffer;
    try {
      content = await inflateRawAsync(data, { maxOutputLength: Math.max(entry.size, 1) });
    } catch {
      throw damaged();
    }
    return verified(entry, content);
  }
}

/** A date as MS-DOS time and date fields (two-second steps, from 1980). */
function dosTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    day: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/**
 * Writes a zip entry by entry: `add` returns the bytes of one entry (its local header and deflated data) for
 * the caller to store or send at once, `finish` the central directory and end record. Memory holds one entry
 * and the directory's small records, whatever the archive's size. Names are UTF-8 (flag 11); every entry
 * carries `modified`, so the same content gives the same bytes.
 */
export class ZipWriter {
  private readonly directory: Buffer[] = [];
  private offset = 0;
  private count = 0;
  private readonly stamp: { time: number; day: number };

  constructor(modified: Date) {
    this.stamp = dosTime(modified);
  }

  add(name: string, content: Buffer): Buffer {
    if (this.count === 0xffff) throw new Error('a zip without Zip64 holds at most 65,535 entries');
    const nameBytes = Buffer.from(name, 'utf8');
    const data = deflateRawSync(content);
    const crc = crc32(content);
    if (this.offset + 30 + nameBytes.length + data.length > 0xffffffff)
      throw new Error('a zip without Zip64 holds 4 GB');
    const fields = (signature: number, size: number) => {
      const header = Buffer.alloc(size);
      header.writeUInt32LE(signature, 0);
      return header;
    };
    const local = fields(0x04034b50, 30);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(this.stamp.time, 10);
    local.writeUInt16LE(this.stamp.day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = fields(0x02014b50, 46);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(this.stamp.time, 12);
    central.writeUInt16LE(this.stamp.day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(this.offset, 42);
    this.directory.push(central, nameBytes);
    const entry = Buffer.concat([local, nameBytes, data]);
    this.offset += entry.length;
    this.count += 1;
    return entry;
  }

  finish(): Buffer {
    const directory = Buffer.concat(this.directory);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.count, 8);
    end.writeUInt16LE(this.count, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.offset, 16);
    return Buffer.concat([directory, end]);
  }
}

/** A whole archive at once, for small ones (tests, exports). */
export function writeZip(entries: { name: string; content: Buffer }[], modified = new Date(0)): Buffer {
  const writer = new ZipWriter(modified);
  return Buffer.concat([...entries.map(({ name, content }) => writer.add(name, content)), writer.finish()]);
}
