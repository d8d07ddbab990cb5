import { z } from 'zod';
import { PlatformError, type PlatformSession } from '@ce/platform-client';
import type { ChangeItemRow, ChangeSetRepository, ChangeSetRow, NewChangeItem } from './repository.js';

/** An item as its action sees it; `startedAt` is when it was claimed for sending. */
export interface ItemContext {
  aid: string;
  subject: string;
  startedAt?: Date | null;
  /** What the item replaces or removes, as read when it was planned. */
  before?: Record<string, unknown> | null;
}

/**
 * The change set around an item: its items as they stand when the item's phase began, so an item can use
 * what an earlier phase made (the id of a test created before the rule that names it).
 */
export interface SetContext {
  items: readonly ChangeItemRow[];
  /**
   * Runs `work` while no other worker, on any instance, runs work of the same name: a find-or-create in the
   * customer's account (a label of one key and value) made once however many runs want it at once.
   */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T>;
}

export type ItemResult = { resultId?: string | null; note?: string | null };

/** The item that reverses a done one: its action and payload (the rest is copied from the done item). */
export interface UndoStep {
  action: string;
  payload: Record<string, unknown>;
  resultId?: string | null;
  before?: Record<string, unknown> | null;
}

/**
 * One kind of write into a customer's account. The engine reads an item's jsonb payload back through
 * `payload`, so nothing is assumed of what the database holds.
 */
export interface ChangeHandler<P> {
  payload: z.ZodType<P>;
  /** What a failure says when the platform gave no words of its own. */
  failure: string;
  /** The platform permission the write needs, named when the platform answers 403. */
  permission?: string;
  execute(session: PlatformSession, payload: P, item: ItemContext, set: SetContext): Promise<ItemResult>;
  /**
   * After a crash, whether an item that was sent took effect: the id it produced, or null to send it
   * again (only when sending again is safe: a deletion that answers 404, an idempotent write).
   */
  reconcile(session: PlatformSession, payload: P, item: ItemContext): Promise<string | null>;
  /** The item that undoes a done one, or null when it left nothing to undo. */
  undo?(payload: P, item: ChangeItemRow): UndoStep | null;
  /** For an item of a later phase: why it must not be sent after what the earlier phases did, or null. */
  blockedBy?(payload: P, items: readonly ChangeItemRow[]): string | null;
}

/** A handler with its payload type forgotten, as the engine holds it. */
export type AnyChangeHandler = ChangeHandler<unknown>;

/** Registers a handler: its payload type is checked here and erased for the engine's table. */
export const changeHandler = <P>(handler: ChangeHandler<P>): AnyChangeHandler => handler as unknown as AnyChangeHandler;

/** The sessions a change set writes with: its own token's, and a second organization's when it has one. */
export interface ChangeSessions {
  source: PlatformSession;
  target: PlatformSession | null;
}

/** A kind of change set: how its items are planned (once, by the first worker), and what ends it. */
export interface ChangeSetKind {
  plan(run: ChangeSetRow, sessions: ChangeSessions, repository: ChangeSetRepository): Promise<NewChangeItem[]>;
  /**
   * What the set tells its requester at its end (a durable Webex delivery keyed by the set), given the run and items
   * as they are about to end: made under its claim right before the end is recorded, so a worker stopped on the way
   * (the database away, a crash) leaves it to the one that resumes the set, which makes it again under the same key
   * (sent once). Its own failure is logged, not the set's; a database fault hands the set back.
   */
  summary?(run: ChangeSetRow, items: ChangeItemRow[]): Promise<void>;
  /** After the set ended (done or failed), once: usage counts. Its failure is logged, not fatal. */
  finished?(run: ChangeSetRow, items: ChangeItemRow[]): Promise<void>;
}

/** What the tools that write contribute to the engine: their kinds of change set and their actions. */
export interface ChangeSetTools {
  kinds: Record<string, ChangeSetKind>;
  actions: Record<string, AnyChangeHandler>;
}

/** The tools' contributions as one table; two tools naming the same kind or action is a mistake. */
export function mergeTools(...tools: ChangeSetTools[]): ChangeSetTools {
  const merged: ChangeSetTools = { kinds: {}, actions: {} };
  for (const tool of tools)
    for (const table of ['kinds', 'actions'] as const)
      for (const [name, entry] of Object.entries(tool[table])) {
        if (name in merged[table]) throw new Error(`change-set ${table}: "${name}" is registered twice`);
        Object.assign(merged[table], { [name]: entry });
      }
  return merged;
}

/** A deletion that answers 404 was done before (by an earlier attempt or by someone else). */
export async function deleteOnce(id: string, remove: () => Promise<unknown>): Promise<ItemResult> {
  try {
    await remove();
    return { resultId: id, note: 'Deleted' };
  } catch (error) {
    if (error instanceof PlatformError && error.status === 404) return { resultId: id, note: 'Already deleted' };
    throw error;
  }
}

/** What an item's failure says: the platform's words, and the permission it needs when that was refused. */
export function itemFailure(error: unknown, handler: Pick<AnyChangeHandler, 'failure' | 'permission'>): string {
  const words = platformFailure(error, handler.failure);
  if (error instanceof PlatformError && error.status === 403 && handler.permission)
    return `${words}. The token's user needs the "${handler.permission}" permission in this account group.`;
  return words;
}

/** Reconciling an item that is safe to send again. */
export const sendAgain = async (): Promise<null> => null;

/** The platform's own words for a failure (its field errors first), or `fallback`. */
export function platformFailure(error: unknown, fallback: string): string {
  if (!(error instanceof PlatformError)) return fallback;
  const fields = error.fieldErrors.map((field) => field.message).filter(Boolean);
  if (fields.length) return fields.join('; ');
  return error.detail ?? error.message ?? fallback;
}

const undoInput = z.object({ sourceRunId: z.string() });

/**
 * The undo of a change set, planned from what it did: every done item whose action knows its reverse,
 * last phase first and last item first, so a move puts the source's rules back before the copies go. An item
 * recorded as failed after it was sent may still have been made (its answer lost, or recorded by a worker that
 * had lost the set): the platform is asked, as for an item a crash left unanswered, and what it made is undone too.
 */
export function undoKind(actions: () => Record<string, AnyChangeHandler>): ChangeSetKind {
  return {
    async plan(run, sessions, repository) {
      const { sourceRunId } = undoInput.parse(run.input);
      const items = await repository.items(sourceRunId);
      const made = items.filter((item) => item.status === 'done' && item.resultId);
      for (const item of items) {
        const handler = actions()[item.action];
        if (item.status !== 'failed' || item.resultId || !item.startedAt || !handler?.undo) continue;
        const session = item.side === 'target' && sessions.target ? sessions.target : sessions.source;
        const resultId = await handler.reconcile(session, handler.payload.parse(item.payload), item);
        if (resultId) made.push({ ...item, resultId });
      }
      const lastPhase = Math.max(0, ...made.map((item) => item.phase));
      const ordered = [...made].sort((a, b) => b.phase - a.phase || b.position - a.position);
      return ordered
        .flatMap((item): Omit<NewChangeItem, 'position'>[] => {
          const handler = actions()[item.action];
          const step = handler?.undo?.(handler.payload.parse(item.payload), item);
          if (!step) return [];
          return [
            {
              action: step.action,
              payload: step.payload,
              inputIndex: item.inputIndex,
              aid: item.aid,
              accountGroupName: item.accountGroupName,
              subject: item.subject,
              side: item.side,
              phase: lastPhase - item.phase,
              resultId: step.resultId ?? null,
              before: step.before ?? null,
            },
          ];
        })
        .map((item, position) => ({ ...item, position }));
    },
  };
}
