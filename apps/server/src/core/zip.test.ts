import { describe, expect, it } from 'vitest';
import { unzipVerified, writeZip, ZipError, ZipWriter } from './zip.js';

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
