import { describe, expect, it } from 'vitest';
import { unzipVerified, writeZip, ZipError, ZipReader, ZipWriter } from './zip.js';

const LIMITS = { maxEntries: 10, maxUnzippedBytes: 1_000_000 };
const files = [
  { name: 'manifest.json', content: Buffer.from('{"schemaVersion":1}') },
  { name: 'config/tests/Café portal.json', content: Buffer.from('{"testName":"Café portal"}\n'.repeat(50)) },
];
const read = (bytes: Buffer, limits = LIMITS) => {
  const contents: Record<string, string> = {};
  unzipVerified(bytes, limits, (entry, content) => (contents[entry.name] = content.toString('utf8')));
  return contents;
};
const problem = (bytes: Buffer, limits = LIMITS) => {
  try {
    read(bytes, limits);
    return 'read';
  } catch (error) {
    return error instanceof ZipError ? error.problem : String(error);
  }
};

describe('zip archives', () => {
  it('round-trips entries (UTF-8 names), the same content giving the same bytes', () => {
    const bytes = writeZip(files, new Date('2026-11-25T10:00:00Z'));
    expect(read(bytes)).toEqual(Object.fromEntries(files.map((file) => [file.name, file.content.toString('utf8')])));
    expect(writeZip(files, new Date('2026-11-25T10:00:00Z')).equals(bytes)).toBe(true);
    const writer = new ZipWriter(new Date('2026-11-25T10:00:00Z'));
    const streamed = Buffer.concat([...files.map((file) => writer.add(file.name, file.content)), writer.finish()]);
    expect(streamed.equals(bytes)).toBe(true);
  });

  it('refuses what a hostile archive tries: bytes after the end, too many entries, a bomb, a wrong CRC, a smuggled entry', () => {
    const bytes = writeZip(files);
    expect(problem(Buffer.concat([bytes, Buffer.from('trailing')]))).toBe('damaged');
    expect(problem(bytes, { ...LIMITS, maxEntries: 1 })).toBe('damaged');
    expect(problem(bytes, { ...LIMITS, maxUnzippedBytes: 100 })).toBe('too-large');
    const flipped = Buffer.from(bytes);
    flipped[60] = (flipped[60] ?? 0) ^ 0xff; // inside the first entry's deflated data
    expect(problem(flipped)).toBe('damaged');
    // An entry the central directory does not list, placed before the listed ones.
    const smuggled = Buffer.concat([writeZip([{ name: 'x', content: Buffer.from('hidden') }]).subarray(0, 40), bytes]);
    expect(problem(smuggled)).toBe('damaged');
    expect(problem(Buffer.from('not a zip at all'))).toBe('damaged');
    expect(problem(bytes.subarray(0, bytes.length - 30))).toBe('damaged');
  });
});

describe('reading an archive entry by entry', () => {
  const READ = { ...LIMITS, maxEntryBytes: () => 100_000, maxRatio: 50 };
  const bomb = (size: number) => writeZip([{ name: 'bomb.json', content: Buffer.alloc(size, 0x20) }]);
  const refusal = async (bytes: Buffer, limits = READ) => {
    try {
      const reader = ZipReader.open(bytes, limits);
      for (const entry of reader.entries) await reader.read(entry);
      return 'read';
    } catch (error) {
      return error instanceof ZipError ? `${error.problem}${error.entry ? ` ${error.entry}` : ''}` : String(error);
    }
  };

  it('unpacks each entry when asked, in the archive order, checked as a whole read checks it', async () => {
    const reader = ZipReader.open(writeZip(files), READ);
    expect(reader.entries.map((entry) => entry.name)).toEqual(files.map((file) => file.name));
    const [manifest] = reader.entries;
    if (!manifest) throw new Error('two entries');
    expect((await reader.read(manifest)).toString('utf8')).toBe('{"schemaVersion":1}');
    const flipped = writeZip(files);
    flipped[60] = (flipped[60] ?? 0) ^ 0xff;
    expect(await refusal(flipped)).toBe('damaged');
  });

  it('refuses a bomb by its directory before unpacking anything: too compressed, too large, or one entry too large', async () => {
    // 5 MB of spaces deflate to about 5 KB: a ratio near 1,000.
    expect(
      await refusal(bomb(5_000_000), { ...READ, maxEntryBytes: () => 10_000_000, maxUnzippedBytes: 10_000_000 }),
    ).toBe('too-compressed');
    expect(await refusal(bomb(5_000_000), { ...READ, maxRatio: 10_000, maxEntryBytes: () => 10_000_000 })).toBe(
      'too-large',
    );
    expect(await refusal(bomb(200_000), { ...READ, maxRatio: 10_000 })).toBe('too-large bomb.json');
  });

  it('stops unpacking an entry that lies about its size at the size it declared', async () => {
    const honest = bomb(5_000_000);
    const lying = Buffer.from(honest);
    // The declared size, in the local header (22) and in the directory entry (24 bytes into it).
    const directory = lying.readUInt32LE(lying.length - 6);
    for (const at of [22, directory + 24]) lying.writeUInt32LE(1000, at);
    expect(await refusal(lying, { ...READ, maxRatio: 10_000 })).toBe('damaged');
  });
});
