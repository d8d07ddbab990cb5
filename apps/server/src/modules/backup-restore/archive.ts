import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ZipWriter } from '../../core/zip.js';
import { BACKUP_KINDS, backupKind, type BackupKind } from './kinds/index.js';

/**
 * The backup archive: a zip a team can keep in git and diff. One JSON file per item under
 * `config/<kind>/` (what restore writes: keys sorted, two-space indent), its server-managed fields (ids,
 * created and modified dates and authors, links) apart under `server/<kind>/`, and `manifest.json` last:
 * the format and schema version, the source, counts per kind, and every file with its SHA-256. Written here;
 * read (as hostile) by archive-reader.ts.
 */
export const BACKUP_FORMAT = 'ce-toolkit-backup';
export const BACKUP_SCHEMA_VERSION = 1;

export { BACKUP_KINDS, type BackupKind } from './kinds/index.js';

/** An item of a backup: what it is, how it is known across account groups, and its two halves. */
export interface BackupItem {
  kind: BackupKind;
  /** Stable across groups and organizations: the item's name (and type, for tests). */
  key: string;
  name: string;
  /** What restore writes, references by name; fields the platform masks are null and listed in `masked`. */
  config: Record<string, unknown>;
  /** Ids, dates, authors and links: kept for the record, ignored by drift and restore. */
  server: Record<string, unknown>;
  /** Fields the platform never gives back (secrets): to enter again on restore. */
  masked: string[];
}

/** Text the manifest holds: bounded, and without a NUL character (the database's text refuses it). */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'holds a NUL character');

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  schemaVersion: z.number().int().positive(),
  source: z.object({
    organization: z.object({ id: text(255), name: text(1000) }),
    accountGroup: z.object({ aid: text(255), accountGroupName: text(1000) }),
    createdAt: z.iso.datetime(),
    createdBy: text(1000),
  }),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  entries: z.array(
    z.object({
      path: text(300),
      kind: z.enum(BACKUP_KINDS),
      key: text(2000),
      name: text(1000),
      part: z.enum(['config', 'server']),
      masked: z.array(text(1000)).default([]),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
});
export type BackupManifest = z.infer<typeof manifestSchema>;
export type BackupSource = BackupManifest['source'];

/** Why an uploaded archive was refused, in words for the user. */
export class BackupArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupArchiveError';
  }
}

/** JSON with keys sorted at every level and a final newline: the same item always gives the same file. */
export function canonicalJson(value: unknown): string {
  const sorted = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(sorted)
      : item && typeof item === 'object'
        ? Object.fromEntries(
            Object.entries(item)
              .filter(([, entry]) => entry !== undefined)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([key, entry]) => [key, sorted(entry)]),
          )
        : item;
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A file name from an item's key: readable, safe on every system, at most 100 characters before `.json`. */
function fileName(key: string): string {
  const base = key
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._()-]+/gu, '-')
    .replace(/^[.\s-]+|[.\s-]+$/g, '')
    .slice(0, 100);
  return base || 'item';
}

/**
 * Writes a backup archive item by item: `add` returns the bytes to store at once (the zip's entries), and
 * `finish` the manifest and the zip's directory. Memory holds one item and the manifest's lines.
 */
export class BackupArchiveWriter {
  private readonly zip: ZipWriter;
  private readonly entries: BackupManifest['entries'] = [];
  private readonly taken = new Set<string>();
  private readonly counts: Record<string, number> = {};

  constructor(private readonly source: BackupSource) {
    this.zip = new ZipWriter(new Date(source.createdAt));
  }

  add(item: BackupItem): Buffer {
    const { folder } = backupKind(item.kind);
    let name = fileName(item.key);
    for (let counter = 2; this.taken.has(`${folder}/${name}`.toLowerCase()); counter++)
      name = `${fileName(item.key).slice(0, 95)} ~${counter}`;
    this.taken.add(`${folder}/${name}`.toLowerCase());
    this.counts[item.kind] = (this.counts[item.kind] ?? 0) + 1;
    const parts = [
      { part: 'config' as const, content: Buffer.from(canonicalJson(item.config)) },
      { part: 'server' as const, content: Buffer.from(canonicalJson(item.server)) },
    ];
    return Buffer.concat(
      parts.map(({ part, content }) => {
        const path = `${part}/${folder}/${name}.json`;
        this.entries.push({
          path,
          kind: item.kind,
          key: item.key,
          name: item.name,
          part,
          masked: part === 'config' ? item.masked : [],
          sha256: sha256(content),
        });
        return this.zip.add(path, content);
      }),
    );
  }

  /** The manifest, then the zip's directory: the archive's last bytes. */
  finish(): { bytes: Buffer; manifest: BackupManifest } {
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      schemaVersion: BACKUP_SCHEMA_VERSION,
      source: this.source,
      counts: Object.fromEntries(BACKUP_KINDS.map((kind) => [kind, this.counts[kind] ?? 0])),
      entries: this.entries,
    };
    const last = this.zip.add('manifest.json', Buffer.from(canonicalJson(manifest)));
    return { bytes: Buffer.concat([last, this.zip.finish()]), manifest };
  }
}

/** A whole archive at once (small backups, tests). */
export function writeArchive(
  source: BackupSource,
  items: Iterable<BackupItem>,
): { bytes: Buffer; manifest: BackupManifest } {
  const writer = new BackupArchiveWriter(source);
  const chunks = [...items].map((item) => writer.add(item));
  const { bytes, manifest } = writer.finish();
  return { bytes: Buffer.concat([...chunks, bytes]), manifest };
}
