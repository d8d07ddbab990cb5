import { z } from 'zod';
import {
  changeHandler,
  deleteOnce,
  sendAgain,
  type AnyChangeHandler,
  type SetContext,
} from '../../core/change-sets/handlers.js';
import { RESTORABLE_KINDS, restoreOf } from './kinds/index.js';
import { writePartsSchema, type Json, type Refs } from './kinds/kind.js';

/** What a restore sends for an item: its kind and key, the body and what it names (kinds/kind.ts). */
const write = z.object({ kind: z.enum(RESTORABLE_KINDS), key: z.string() }).extend(writePartsSchema.shape);
type Write = z.infer<typeof write>;
const createPayload = write.extend({
  knownIds: z.array(z.string()).default([]),
  /** The id a test had in this group when it was backed up: recreated, it has a new one and its history stays there. */
  formerId: z.string().optional(),
});
const updatePayload = write.extend({ id: z.string() });
const deletePayload = z.object({
  kind: z.enum(RESTORABLE_KINDS),
  key: z.string(),
  variant: z.string().optional(),
  id: z.string(),
  /** What undoing the deletion creates again. */
  recreate: write.nullable(),
});

/** What an earlier phase of the restore wrote that later items may name by their key in the backup. */
const WRITTEN = new Set(['restore-create', 'restore-update']);

/**
 * The ids of the items of a kind a body names: the target's own, or those this restore wrote earlier (created,
 * or renamed back: the key is the backup's, the id the one the platform kept).
 */
function idsOf(kind: string, named: Refs | undefined, set: SetContext): string[] {
  if (!named) return [];
  const created = new Map(
    set.items
      .filter(
        (item) => item.status === 'done' && WRITTEN.has(item.action) && item.resultId && item.details?.kind === kind,
      )
      .map((item) => [String(item.details?.key ?? ''), String(item.resultId)]),
  );
  return named.keys.flatMap((key) => {
    const id = named.known[key] ?? created.get(key);
    return id ? [id] : [];
  });
}

/** A body with the ids of what it names filled in (its kind's `send`: tests, endpoint labels). */
const sent = (payload: Write, set: SetContext): Json =>
  restoreOf(payload.kind).send?.(payload, (kind, named) => idsOf(kind, named, set)) ?? payload.body;

/**
 * What a create says: a test deleted since its backup comes back under the id the platform gives it now, and
 * the platform keeps its measured history with the old id, which it never gives again.
 */
function createdNote(payload: z.infer<typeof createPayload>, name: string, resultId: string): string {
  if (payload.kind !== 'test' || !payload.formerId || payload.formerId === resultId) return 'Created';
  return `'${name}' restored as test ${resultId}: its history stays with the old test (${payload.formerId})`;
}

/** The writes of a restore, as the change-set engine performs, reconciles and undoes them. */
export const RESTORE_ACTIONS: Record<string, AnyChangeHandler> = {
  'restore-create': changeHandler({
    payload: createPayload,
    failure: 'Failed to restore the item',
    async execute(session, payload, item, set) {
      const resultId = await restoreOf(payload.kind).platform.create(session, payload, sent(payload, set), item.aid);
      return { resultId, note: createdNote(payload, item.subject, resultId) };
    },
    /** Only an item of the name sent that the group did not have when planned: never a customer's own. */
    async reconcile(session, payload, item) {
      const name = restoreOf(payload.kind).nameOf(payload.body);
      const found = await restoreOf(payload.kind).platform.list(session, payload, item.aid);
      return found.find((entry) => entry.name === name && !payload.knownIds.includes(entry.id))?.id ?? null;
    },
    undo: (payload, item) =>
      item.resultId
        ? {
            action: 'restore-delete',
            payload: {
              kind: payload.kind,
              key: payload.key,
              variant: payload.variant,
              id: item.resultId,
              recreate: null,
            },
            resultId: item.resultId,
          }
        : null,
  }),
  'restore-update': changeHandler({
    payload: updatePayload,
    failure: 'Failed to restore the item',
    async execute(session, payload, item, set) {
      await restoreOf(payload.kind).platform.update(session, payload, payload.id, sent(payload, set), item.aid);
      return { resultId: payload.id, note: 'Updated' };
    },
    // A PUT of the whole definition: sending it again changes nothing more.
    reconcile: sendAgain,
    /** Puts back the definition the item had when planned (kept whole in `before`). */
    undo: (payload, item) =>
      item.before && restoreOf(payload.kind).undoesUpdate
        ? { action: 'restore-update', payload: { ...write.parse(item.before), id: payload.id }, resultId: payload.id }
        : null,
  }),
  'restore-delete': changeHandler({
    payload: deletePayload,
    failure: 'Failed to delete the item',
    execute: (session, payload, item) =>
      deleteOnce(payload.id, () => restoreOf(payload.kind).platform.delete(session, payload, payload.id, item.aid)),
    reconcile: sendAgain,
    /** What a restore deleted comes back as it was (under a new id: the platform gives ids). */
    undo: (payload) =>
      payload.recreate ? { action: 'restore-create', payload: { ...payload.recreate, knownIds: [] } } : null,
  }),
};

export { write as restoreWriteSchema };
export type RestoreWrite = z.infer<typeof write>;
