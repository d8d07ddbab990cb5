import { z } from 'zod';
import { PlatformError, type PlatformSession } from '@ce/platform-client';
import type { DroppedReference, ResolvedReference } from '../../../core/change-sets/change-item.js';
import { isRecord } from '../../../core/json.js';
import { mapPool } from '../../../core/map-pool.js';
import type { BackupItem } from '../archive.js';
import type { FieldChange } from '../drift.js';
import type { RestoreTarget } from '../restore-plan.js';

/**
 * A kind of backup item (tests, alert rules, dashboards, ...), described once: how it is read from the
 * platform, how its items lie in the archive, what of it is compared, how a restore plans it and how it is
 * written back. `kinds/index.ts` lists them; the rest of the module iterates that list.
 */
export interface BackupKindDescriptor<K extends string = string> {
  kind: K;
  /** The archive: its items' files lie under `config/<folder>/` and `server/<folder>/`, named by key. */
  folder: string;
  /**
   * Its own fields the platform manages, kept in the item's `server` half with the platform's common ones
   * (read.ts): never compared (drift) nor written back. The first is the item's id on the platform.
   */
  serverFields: readonly [string, ...string[]];
  /** What its configuration must be for drift, the plan and the writes to read it (checked at upload). */
  configShape: z.ZodType;
  /** Why an archive's key of this kind cannot be written back, or null (checked at upload). */
  keyProblem?(key: string): string | null;
  /**
   * Reads the group's items of this kind and emits each. Kinds are read in the list's order, so a kind may
   * use what an earlier one recorded in the context (the tests' keys). Null: another kind's read emits them.
   */
  read: ((context: ReadContext) => Promise<void>) | null;
  /** How a restore plans and writes its items; null: kept for the record, never restored nor deleted. */
  restore: RestoreDescriptor | null;
}

export type Json = Record<string, unknown>;

/** One group being read: where to emit items, and what earlier kinds recorded for later ones. */
export interface ReadContext {
  session: PlatformSession;
  aid: string;
  emit(item: BackupItem): void;
  /** The group's agents by id (read once, beside the tests). */
  agents: Promise<Map<string, string>>;
  /** The group's tests by id, as their keys: recorded by the test kind, read first. */
  testKeys: Map<string, string>;
  /** The group's endpoint labels by id, as their names: recorded by the endpoint-label kind. */
  labelNames: Map<string, string>;
}

/** One item being planned: its configuration (references remapped in place), what was resolved and dropped. */
export interface PlanStep {
  item: BackupItem;
  config: Json;
  resolved: ResolvedReference[];
  dropped: DroppedReference[];
}

/** What a plan knows of the target once the restore's earlier phases are done. */
export interface PlanContext {
  target: RestoreTarget;
  /** The keys of a kind the target will have: its own and those restored. */
  keysAfter(kind: string): ReadonlySet<string>;
  /** The target's items of a kind by key, as their ids. */
  targetIds(kind: string): ReadonlyMap<string, string>;
}

/** Items a body names by key: resolved when the item is sent (one restored in phase 0 has its id then). */
export const refsSchema = z.object({
  field: z.enum(['testIds', 'assignments']).optional(),
  keys: z.array(z.string()).default([]),
  /** The target's own items by key, known when planned. */
  known: z.record(z.string(), z.string()).default({}),
});
export type Refs = z.infer<typeof refsSchema>;

/** What a restore sends for an item (its kind and key beside): the body, and what it names to resolve. */
export const writePartsSchema = z.object({
  /** An endpoint scheduled test's type (its URL names it). */
  variant: z.string().optional(),
  body: z.record(z.string(), z.unknown()),
  tests: refsSchema.optional(),
  /** An endpoint test's labels, sent as `endpointAgentLabels`. */
  labels: refsSchema.optional(),
});
export type WriteParts = z.infer<typeof writePartsSchema>;

/** The item a platform call is about: its key, and its variant where the URL names one. */
export interface Target {
  key: string;
  variant?: string;
}

/** The platform's calls for a kind a restore writes. */
export interface PlatformCalls {
  create(session: PlatformSession, target: Target, body: Json, aid: string): Promise<string>;
  update(session: PlatformSession, target: Target, id: string, body: Json, aid: string): Promise<unknown>;
  delete(session: PlatformSession, target: Target, id: string, aid: string): Promise<unknown>;
  /** The group's items of this kind by name and id (to find a creation after a crash). */
  list(session: PlatformSession, target: Target, aid: string): Promise<{ id: string; name: string }[]>;
}

/** The ids of the items of a kind a body names, when it is sent: the target's own or those restored before. */
export type IdsOf = (kind: string, named: Refs | undefined) => string[];

export interface RestoreDescriptor {
  /** 0: created first and deleted last (others point at it); 1: what points at phase 0. */
  phase: 0 | 1;
  /**
   * The kind's checks and references for one item: remaps the references in `step.config` (recording what is
   * resolved and dropped) and answers why the item cannot be restored, or null.
   */
  plan?(step: PlanStep, context: PlanContext): string | null;
  /** Why an update with these differences cannot be made, or null. */
  updateProblem?(differences: FieldChange[]): string | null;
  /** The item's configuration as the platform's POST or PUT takes it, references left to resolve when sent. */
  write(item: Pick<BackupItem, 'key' | 'config'>, target: RestoreTarget, ids: PlanContext['targetIds']): WriteParts;
  /** The body sent, with the ids of what it names filled in (default: the body as it is). */
  send?(write: WriteParts, ids: IdsOf): Json;
  /** The name the platform lists a body under (to find a creation after a crash). */
  nameOf(body: Json): string;
  /** Whether undoing an update puts the definition back (false where the platform only adds). */
  undoesUpdate: boolean;
  platform: PlatformCalls;
}

/** Fields the platform manages for every kind: kept in an item's `server` half, never compared or restored. */
const COMMON_SERVER_FIELDS = new Set([
  '_links',
  'aid',
  'createdBy',
  'createdDate',
  'modifiedBy',
  'modifiedDate',
  'lastModified',
  'savedEvent',
  'liveShare',
  'status',
  'apiLinks',
]);
/** Fields the platform never gives back in clear: recorded as "to enter again on restore". */
const MASKED = /password|secret|privateKey|clientCertificate|authToken|bearerToken/i;

export type ItemParts = { config: Json; server: Json; masked: string[] };

/**
 * An object split in two: what restore writes (`config`) and what the platform manages (`server`: the
 * common fields and `serverFields`); masked fields become null in `config` and are listed.
 */
export function split(value: Json, serverFields: readonly string[]): ItemParts {
  const config: Json = {};
  const server: Json = {};
  const masked: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (COMMON_SERVER_FIELDS.has(key) || serverFields.includes(key)) server[key] = item;
    else if (MASKED.test(key) && item !== null && item !== undefined && item !== '') {
      config[key] = null;
      masked.push(key);
    } else config[key] = item;
  }
  return { config, server, masked };
}

/** Details read at once; the organization's limiter decides the pace. */
const DETAIL_CONCURRENCY = 6;

/** Reads each listed item's detail, a few at a time. */
export const eachDetail = <T>(list: readonly T[], read: (listed: T) => Promise<void>) =>
  mapPool(list, DETAIL_CONCURRENCY, read);

const NAMES = 'must be a list of names';
/** Shapes of the fields a kind reads (`configShape`), refused in these words. */
export const namesField = z.array(z.string({ error: NAMES }), { error: NAMES }).optional();
export const objectsField = (shape: z.ZodRawShape) =>
  z
    .array(z.looseObject(shape, { error: 'must be a list of objects' }), { error: 'must be a list of objects' })
    .optional();
export const objectField = (shape: z.ZodRawShape) => z.looseObject(shape, { error: 'must be an object' }).optional();

export const isJson = isRecord;

/**
 * A body as a kind's platform write takes it (`schema`: the fields the platform requires), or refused as the
 * platform would refuse it, naming each field, before any call (a backup edited by hand may lack one).
 */
export function writable<T>(schema: z.ZodType<T>, body: Json): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fieldErrors = parsed.error.issues.map((issue) => {
    const field = issue.path.join('.');
    return { field, message: `${field}: ${issue.message}` };
  });
  throw new PlatformError(400, 'The item cannot be written back', fieldErrors);
}
/** A field holding objects: those objects (none when it holds something else). */
export const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJson) : []);
/** A field holding names: the names (none when it holds something else). */
export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** References by id as names (sorted), `fallback` naming those not found. */
export const namesOf = (ids: unknown, names: (id: string) => string | undefined, fallback: (id: string) => string) =>
  strings(ids)
    .map((id) => names(id) ?? fallback(id))
    .sort();

/** Tests by id as their keys (sorted), `test <id>` for one the group does not have. */
export const testKeysOf = (ids: unknown, testKeys: ReadonlyMap<string, string>) =>
  namesOf(
    ids,
    (id) => testKeys.get(id),
    (id) => `test ${id}`,
  );

/** Tests a rule, window or tag names (`field`) that the target will not have: dropped with the reason. */
export function dropMissingTests(step: PlanStep, field: string, context: PlanContext): void {
  if (!Array.isArray(step.config[field])) return;
  const testsAfter = context.keysAfter('test');
  const kept: string[] = [];
  for (const key of strings(step.config[field])) {
    if (testsAfter.has(key)) kept.push(key);
    else
      step.dropped.push({
        kind: 'test',
        name: key,
        reason: `No test ${key} in ${context.target.accountGroupName}, nor in what is restored`,
      });
  }
  step.config[field] = kept;
}

/** A body naming its tests by id in `tests.field` (rules, windows, tags). */
export const sendWithTests = (write: WriteParts, ids: IdsOf): Json =>
  write.tests?.field ? { ...write.body, [write.tests.field]: ids('test', write.tests) } : write.body;

/** How a kind that names tests in `config.tests` (sent as `testIds`: rules, windows) plans and writes them. */
export const namingTests = {
  plan(step, context) {
    dropMissingTests(step, 'tests', context);
    return null;
  },
  write: ({ config }, _target, ids) => {
    const { tests, ...body } = config;
    return { body, tests: { field: 'testIds', keys: strings(tests), known: Object.fromEntries(ids('test')) } };
  },
  send: sendWithTests,
} satisfies Partial<RestoreDescriptor>;

/** Fields of a body, those present. */
export const pick = (body: Json, fields: readonly string[]) =>
  Object.fromEntries(fields.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]));
