import { createHash } from 'node:crypto';
import { z } from 'zod';
import { unzipVerified, ZipError, ZipWriter } from '../../core/zip.js';

/**
 * The backup archive: a zip a team can keep in git and diff. One JSON file per item under
 * `config/<kind>/` (what restore writes: keys sorted, two-space indent), its server-managed fields (ids,
 * created and modified dates and authors, links) apart under `server/<kind>/`, and `manifest.json` last:
 * the format and schema version, the source, counts per kind, and every file with its SHA-256.
 */
export const BACKUP_FORMAT = 'ce-toolkit-backup';
export const BACKUP_SCHEMA_VERSION = 1;

export const BACKUP_KINDS = [
  'test',
  'alert-rule',
  'suppression-window',
  'dashboard',
  'tag',
  'endpoint-label',
  'endpoint-scheduled-test',
  'endpoint-dynamic-test',
  'reference',
] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/** The folder of each kind in the archive. */
const FOLDERS: Record<BackupKind, string> = {
  test: 'tests',
  'alert-rule': 'alert-rules',
  'suppression-window': 'suppression-windows',
  dashboard: 'dashboards',
  tag: 'tags',
  'endpoint-label': 'endpoint-labels',
  'endpoint-scheduled-test': 'endpoint-scheduled-tests',
  'endpoint-dynamic-test': 'endpoint-dynamic-tests',
  reference: 'references',
};

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

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  schemaVersion: z.number().int().positive(),
  source: z.object({
    organization: z.object({ id: z.string(), name: z.string() }),
    accountGroup: z.object({ aid: z.string(), accountGroupName: z.string() }),
    createdAt: z.iso.datetime(),
    createdBy: z.string(),
  }),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  entries: z.array(
    z.object({
      path: z.string(),
      kind: z.enum(BACKUP_KINDS),
      key: z.string(),
      name: z.string(),
      part: z.enum(['config', 'server']),
      masked: z.array(z.string()).default([]),
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

/** What a backup archive may hold at most: every item of the largest account group, twice over. */
export const ARCHIVE_LIMITS = { maxEntries: 60_001, maxUnzippedBytes: 512 * 1024 * 1024 };

/** JSON with keys sorted at every level and a final newline: the same item always gives the same file. */
export function canonicalJson(value: unknown): string {
  const sorted = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(sorted)
      : item && typeof item === 'object'
        ? Object.fromEntries(
            Object.entries(item as Record<string, unknown>)
              .filter(([, entry]) => entry !== undefined)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([key, entry]) => [key, sorted(entry)]),
          )
        : item;
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

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
    const folder = FOLDERS[item.kind];
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

const jsonObject = z.record(z.string(), z.unknown());
const SAFE_PATH = /^(config|server)\/[a-z-]+\/[^/\\]+\.json$/;

/**
 * Reads an uploaded archive, recognised by its content: a zip held to the upload rules (core/zip.ts), with a
 * manifest of this format and a schema this version reads, listing exactly the files the archive holds, each
 * with its checksum, each a JSON object. Answers the manifest and the items; refuses anything else with a
 * message that says what is wrong.
 */
export function readArchive(bytes: Buffer): { manifest: BackupManifest; items: BackupItem[] } {
  const files = new Map<string, Buffer>();
  try {
    unzipVerified(bytes, ARCHIVE_LIMITS, (entry, content) => {
      if (files.has(entry.name)) throw new BackupArchiveError(`The archive holds ${entry.name} twice.`);
      files.set(entry.name, content);
    });
  } catch (error) {
    if (error instanceof ZipError)
      throw new BackupArchiveError(
        error.problem === 'too-large'
          ? 'The archive unpacks to more than a backup may hold.'
          : 'This file is not a backup archive, or it is damaged: it is not a whole zip file.',
      );
    throw error;
  }
  const manifestBytes = files.get('manifest.json');
  if (!manifestBytes) throw new BackupArchiveError('This zip is not a backup archive: it holds no manifest.json.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifestBytes.toString('utf8'));
  } catch {
    throw new BackupArchiveError('The backup manifest is not JSON.');
  }
  const version = jsonObject.safeParse(parsed).data?.schemaVersion;
  if (typeof version === 'number' && version > BACKUP_SCHEMA_VERSION)
    throw new BackupArchiveError(
      `This backup was made by a newer version (schema ${version}); this version reads schema ${BACKUP_SCHEMA_VERSION}.`,
    );
  const checked = manifestSchema.safeParse(parsed);
  if (!checked.success)
    throw new BackupArchiveError(
      `The backup manifest is not valid: ${checked.error.issues[0]?.path.join('.') ?? ''} ${checked.error.issues[0]?.message ?? ''}`.trim(),
    );
  const manifest = checked.data;
  const listed = new Set(manifest.entries.map((entry) => entry.path));
  const extra = [...files.keys()].filter((name) => name !== 'manifest.json' && !listed.has(name));
  if (extra.length)
    throw new BackupArchiveError(
      `The archive holds files its manifest does not list: ${extra.slice(0, 3).join(', ')}.`,
    );
  const halves = new Map<string, { item: Partial<BackupItem> }>();
  for (const entry of manifest.entries) {
    if (!SAFE_PATH.test(entry.path) || entry.path.includes('..'))
      throw new BackupArchiveError(`The manifest names a file outside the backup's folders: ${entry.path}.`);
    const content = files.get(entry.path);
    if (!content) throw new BackupArchiveError(`The archive lacks ${entry.path}, which its manifest lists.`);
    if (sha256(content) !== entry.sha256)
      throw new BackupArchiveError(
        `${entry.path} does not match its checksum: the archive was changed after it was made.`,
      );
    let value: unknown;
    try {
      value = JSON.parse(content.toString('utf8'));
    } catch {
      throw new BackupArchiveError(`${entry.path} is not JSON.`);
    }
    const object = jsonObject.safeParse(value);
    if (!object.success) throw new BackupArchiveError(`${entry.path} is not a JSON object.`);
    // A config file and its server file share their path below `config/` and `server/`.
    const id = entry.path.slice(entry.part.length + 1);
    const half = halves.get(id) ?? { item: { kind: entry.kind, key: entry.key, name: entry.name, masked: [] } };
    if (entry.part === 'config') Object.assign(half.item, { config: object.data, masked: entry.masked });
    else Object.assign(half.item, { server: object.data });
    halves.set(id, half);
  }
  const items = [...halves.values()].map(({ item }) => {
    if (!item.config)
      throw new BackupArchiveError(`The backup lists ${item.name ?? 'an item'} without its configuration.`);
    return { server: {}, ...item } as BackupItem;
  });
  const keys = new Set<string>();
  for (const item of items) {
    if (keys.has(`${item.kind}\u0000${item.key}`))
      throw new BackupArchiveError(`The backup lists two ${item.kind} items as ${item.key}.`);
    keys.add(`${item.kind}\u0000${item.key}`);
  }
  for (const kind of BACKUP_KINDS)
    if ((manifest.counts[kind] ?? 0) !== items.filter((item) => item.kind === kind).length)
      throw new BackupArchiveError(`The manifest's count of ${kind} items does not match the files.`);
  return { manifest, items };
}
