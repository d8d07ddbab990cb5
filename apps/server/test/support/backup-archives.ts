import { createHash } from 'node:crypto';
import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';
import {
  BACKUP_FORMAT,
  canonicalJson,
  writeArchive,
  type BackupItem,
  type BackupKind,
} from '../../src/modules/backup-restore/archive.js';
import { rawZip, type RawEntry } from './raw-zip.js';

/** Where the test archives say they come from. */
export const SOURCE = {
  organization: { id: 'org-hostile', name: 'Hostile Org' },
  accountGroup: { aid: 'aid-hostile', accountGroupName: 'Hostile Group' },
  createdAt: '2026-03-01T10:00:00.000Z',
  createdBy: 'someone@example.com',
};

const entryOf = (name: string, content: Buffer, compressed: Buffer): RawEntry => ({
  name,
  compressed,
  size: content.length,
  crc: crc32(content),
});

/**
 * A JSON file of `size` bytes, nearly all spaces before `{}`: a few hundred times smaller deflated. Deflated
 * and hashed a megabyte at a time, so the test never holds what it unpacks to.
 */
export async function spacesFile(name: string, size: number): Promise<{ entry: RawEntry; sha256: string }> {
  const deflate = createDeflateRaw();
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const hash = createHash('sha256');
  let crc = 0;
  const MB = 1024 * 1024;
  const spaces = Buffer.alloc(MB, 0x20);
  for (let written = 0; written < size - 2;) {
    const part = spaces.subarray(0, Math.min(MB, size - 2 - written));
    hash.update(part);
    crc = crc32(part, crc);
    deflate.write(part);
    written += part.length;
  }
  const end = Buffer.from('{}');
  hash.update(end);
  deflate.end(end);
  await ended;
  return {
    entry: { name, compressed: Buffer.concat(chunks), size, crc: crc32(end, crc) },
    sha256: hash.digest('hex'),
  };
}

/** A file of the archive's as the manifest lists it. */
export interface ListedFile {
  path: string;
  kind: BackupKind;
  key: string;
  name: string;
  part: 'config' | 'server';
  sha256: string;
}

/** The manifest of `files` (counts from their config halves), as an entry. */
export function manifestEntry(files: ListedFile[]): RawEntry {
  const counts: Record<string, number> = {};
  for (const file of files) if (file.part === 'config') counts[file.kind] = (counts[file.kind] ?? 0) + 1;
  const content = Buffer.from(
    canonicalJson({
      format: BACKUP_FORMAT,
      schemaVersion: 1,
      source: SOURCE,
      counts,
      entries: files.map((file) => ({ ...file, masked: [] })),
    }),
  );
  return entryOf('manifest.json', content, deflateRawSync(content));
}

/**
 * A backup archive whose items are tests named by `names`, each config file `size` bytes of spaces before `{}`
 * (a bomb when `size` is large): a manifest that lists them with their true checksums.
 */
export async function spacesArchive(
  files: { kind: BackupKind; key: string; part: 'config' | 'server'; size: number }[],
  declared: Record<string, number> = {},
): Promise<Buffer> {
  const entries: RawEntry[] = [];
  const listed: ListedFile[] = [];
  for (const [index, file] of files.entries()) {
    const path = `${file.part}/tests/item-${index}.json`;
    const { entry, sha256 } = await spacesFile(path, file.size);
    entries.push(entry);
    listed.push({ path, kind: file.kind, key: file.key, name: file.key, part: file.part, sha256 });
  }
  return rawZip([...entries, manifestEntry(listed)], declared);
}

/** A backup archive of `items` as the product writes it (from `source`'s group). */
export const archiveOf = (items: BackupItem[], source = SOURCE) => writeArchive(source, items).bytes;

/** A backup item with the given configuration (and nothing masked). */
export const itemOf = (
  kind: BackupKind,
  key: string,
  config: Record<string, unknown>,
  server: Record<string, unknown> = {},
): BackupItem => ({ kind, key, name: key, config, server, masked: [] });
