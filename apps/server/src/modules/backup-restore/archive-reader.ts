import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import { ZipError, ZipReader, type ZipEntry } from '../../core/zip.js';
import {
  BACKUP_KINDS,
  BACKUP_SCHEMA_VERSION,
  BackupArchiveError,
  manifestSchema,
  sha256,
  type BackupItem,
  type BackupKind,
  type BackupManifest,
} from './archive.js';
import { configProblem, holdsNul, keyProblem, nestsDeeperThan } from './item-shapes.js';

/** What a backup archive may unpack to: in all, and as a multiple of its own size (configurable). */
export interface ArchiveLimits {
  maxUnpackedBytes: number;
  maxRatio: number;
}
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxUnpackedBytes: 512 * 1024 * 1024, maxRatio: 100 };
/** Files a backup archive may hold at most: every item of the largest account group, twice over. */
const MAX_ENTRIES = 60_001;
/** What one item's file may unpack to: far more than any item the platform holds. */
export const ITEM_FILE_MAX_BYTES = 4 * 1024 * 1024;
/** How deep an item's configuration may nest (the platform's go a few levels down). */
export const MAX_NESTING = 32;
/** The manifest may unpack to a few kilobytes per file it lists. */
const manifestMaxBytes = (files: number) => 64 * 1024 + 2048 * files;

const jsonObject = z.record(z.string(), z.unknown());
const SAFE_PATH = /^(config|server)\/[a-z-]+\/[^/\\]+\.json$/;
const MB = 1024 * 1024;

/** One half of an item as its file holds it: its JSON text (checked) and the value it parses to. */
export interface ItemHalf {
  kind: BackupKind;
  key: string;
  name: string;
  masked: string[];
  part: 'config' | 'server';
  json: string;
  value: Record<string, unknown>;
}

/** A refusal of core/zip.ts in the words of a backup upload. */
function zipRefusal(error: ZipError, limits: ArchiveLimits): BackupArchiveError {
  if (error.problem === 'too-compressed')
    return new BackupArchiveError(
      `The archive unpacks to more than ${limits.maxRatio} times its own size, which no backup does: it is refused.`,
    );
  if (error.problem === 'too-large')
    return new BackupArchiveError(
      error.entry
        ? `${error.entry} unpacks to more than ${ITEM_FILE_MAX_BYTES / MB} MB, more than an item's file may hold.`
        : `The archive unpacks to more than ${Math.round(limits.maxUnpackedBytes / MB)} MB, more than a backup may hold.`,
    );
  return new BackupArchiveError('This file is not a backup archive, or it is damaged: it is not a whole zip file.');
}

/** Runs a step of reading the zip, its refusals said in a backup's words. */
async function inBackupWords<T>(limits: ArchiveLimits, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof ZipError ? zipRefusal(error, limits) : error;
  }
}

/** The manifest's own checks, before any item's file is unpacked: its files against the zip's, its items, its counts. */
function checkListing(manifest: BackupManifest, names: string[]): void {
  const listed = new Set(manifest.entries.map((entry) => entry.path));
  const extra = names.filter((name) => name !== 'manifest.json' && !listed.has(name));
  if (extra.length)
    throw new BackupArchiveError(
      `The archive holds files its manifest does not list: ${extra.slice(0, 3).join(', ')}.`,
    );
  const present = new Set(names);
  const paths = new Set<string>();
  const items = new Map<string, { kind: BackupKind; key: string; name: string; config: boolean }>();
  for (const entry of manifest.entries) {
    if (!SAFE_PATH.test(entry.path) || entry.path.includes('..'))
      throw new BackupArchiveError(`The manifest names a file outside the backup's folders: ${entry.path}.`);
    if (!present.has(entry.path))
      throw new BackupArchiveError(`The archive lacks ${entry.path}, which its manifest lists.`);
    if (paths.has(entry.path)) throw new BackupArchiveError(`The manifest lists ${entry.path} twice.`);
    paths.add(entry.path);
    const problem = keyProblem(entry.kind, entry.key);
    if (problem) throw new BackupArchiveError(problem);
    // A config file and its server file share their path below `config/` and `server/`.
    const id = entry.path.slice(entry.part.length + 1);
    const item = items.get(id) ?? { kind: entry.kind, key: entry.key, name: entry.name, config: false };
    if (item.kind !== entry.kind || item.key !== entry.key)
      throw new BackupArchiveError(`The manifest gives ${id} two different items.`);
    if (entry.part === 'config') item.config = true;
    items.set(id, item);
  }
  const keys = new Set<string>();
  for (const item of items.values()) {
    if (!item.config) throw new BackupArchiveError(`The backup lists ${item.name} without its configuration.`);
    if (keys.has(`${item.kind}\u0000${item.key}`))
      throw new BackupArchiveError(`The backup lists two ${item.kind} items as ${item.key}.`);
    keys.add(`${item.kind}\u0000${item.key}`);
  }
  const counts = new Map<string, number>();
  for (const item of items.values()) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  for (const kind of BACKUP_KINDS)
    if ((manifest.counts[kind] ?? 0) !== (counts.get(kind) ?? 0))
      throw new BackupArchiveError(`The manifest's count of ${kind} items does not match the files.`);
}

/** A file of an item, checked: its checksum, JSON no deeper than the limit, an object of the shape its kind reads. */
function itemHalf(entry: BackupManifest['entries'][number], content: Buffer): ItemHalf {
  if (sha256(content) !== entry.sha256)
    throw new BackupArchiveError(
      `${entry.path} does not match its checksum: the archive was changed after it was made.`,
    );
  const json = content.toString('utf8');
  if (nestsDeeperThan(json, MAX_NESTING))
    throw new BackupArchiveError(`${entry.path} nests deeper than ${MAX_NESTING} levels.`);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new BackupArchiveError(`${entry.path} is not JSON.`);
  }
  const object = jsonObject.safeParse(value);
  if (!object.success) throw new BackupArchiveError(`${entry.path} is not a JSON object.`);
  if (holdsNul(object.data)) throw new BackupArchiveError(`${entry.path} holds a NUL character.`);
  const problem = entry.part === 'config' ? configProblem(entry.kind, object.data) : null;
  if (problem) throw new BackupArchiveError(`${entry.path} is not an item this version reads: ${problem}.`);
  const { kind, key, name, part } = entry;
  return { kind, key, name, part, masked: part === 'config' ? entry.masked : [], json, value: object.data };
}

/**
 * An uploaded (or stored) archive, recognised by its content and read as hostile: a zip held to the upload
 * rules and to `limits` (core/zip.ts: the whole, each file and the ratio to the archive's size checked from
 * its directory before anything is unpacked), with a manifest of this format and a schema this version reads,
 * listing exactly the files the archive holds. `open` checks all that from the manifest alone; `halves` then
 * unpacks the items' files one at a time, off the event loop, each checked (checksum, depth, the fields its
 * kind reads, a JSON object) and handed over, so memory holds the archive and one file. Every refusal says
 * what is wrong.
 */
export class BackupArchiveReader {
  private constructor(
    private readonly zip: ZipReader,
    readonly manifest: BackupManifest,
    private readonly limits: ArchiveLimits,
  ) {}

  static async open(bytes: Buffer, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<BackupArchiveReader> {
    const zip = await inBackupWords(limits, () =>
      ZipReader.open(bytes, {
        maxEntries: MAX_ENTRIES,
        maxUnzippedBytes: limits.maxUnpackedBytes,
        maxRatio: limits.maxRatio,
        maxEntryBytes: (entry: ZipEntry, entries: number) =>
          entry.name === 'manifest.json' ? manifestMaxBytes(entries) : ITEM_FILE_MAX_BYTES,
      }),
    );
    const names = new Set<string>();
    for (const entry of zip.entries) {
      if (names.has(entry.name)) throw new BackupArchiveError(`The archive holds ${entry.name} twice.`);
      names.add(entry.name);
    }
    const manifestEntry = zip.entries.find((entry) => entry.name === 'manifest.json');
    if (!manifestEntry) throw new BackupArchiveError('This zip is not a backup archive: it holds no manifest.json.');
    const manifestBytes = await inBackupWords(limits, () => zip.read(manifestEntry));
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
    checkListing(checked.data, [...names]);
    return new BackupArchiveReader(zip, checked.data, limits);
  }

  /** The items' files in the archive's order, each unpacked and checked when its turn comes. */
  async *halves(): AsyncGenerator<ItemHalf> {
    const listed = new Map(this.manifest.entries.map((entry) => [entry.path, entry]));
    for (const file of this.zip.entries) {
      const entry = listed.get(file.name);
      if (!entry) continue;
      const content = await inBackupWords(this.limits, () => this.zip.read(file));
      yield itemHalf(entry, content);
      // Files stored without compression are read at once: each still leaves the event loop a turn.
      await nextTurn();
    }
  }
}

/** Items from their halves, as they come (a config file and its server file may be anywhere in the archive). */
export class ItemsFromHalves {
  private readonly items = new Map<string, BackupItem>();

  add(half: ItemHalf): void {
    const id = `${half.kind}\u0000${half.key}`;
    const item = this.items.get(id) ?? {
      kind: half.kind,
      key: half.key,
      name: half.name,
      config: {},
      server: {},
      masked: [],
    };
    if (half.part === 'config') Object.assign(item, { config: half.value, masked: half.masked });
    else item.server = half.value;
    this.items.set(id, item);
  }

  all(): BackupItem[] {
    return [...this.items.values()];
  }
}

/** A whole archive read at once, its items in memory (tests, small archives): `BackupArchiveReader`'s checks. */
export async function readArchive(
  bytes: Buffer,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<{ manifest: BackupManifest; items: BackupItem[] }> {
  const reader = await BackupArchiveReader.open(bytes, limits);
  const items = new ItemsFromHalves();
  for await (const half of reader.halves()) items.add(half);
  return { manifest: reader.manifest, items: items.all() };
}
