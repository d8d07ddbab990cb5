import { z } from 'zod';
import type { PlatformSession, PlatformTestType, TestCreateBody } from '@ce/platform-client';
import {
  changeHandler,
  deleteOnce,
  sendAgain,
  type AnyChangeHandler,
  type SetContext,
} from '../../core/change-sets/handlers.js';

type Json = Record<string, unknown>;
const KINDS = ['test', 'alert-rule', 'suppression-window', 'dashboard', 'tag'] as const;
type Kind = (typeof KINDS)[number];

/** A body's tests, named by key: resolved when the item is sent (a test restored in phase 0 has its id then). */
const testRefs = z.object({
  field: z.enum(['testIds', 'assignments']).optional(),
  keys: z.array(z.string()).default([]),
  /** The target's own tests by key, known when planned. */
  known: z.record(z.string(), z.string()).default({}),
});
type TestRefs = z.infer<typeof testRefs>;
const write = z.object({
  kind: z.enum(KINDS),
  key: z.string(),
  body: z.record(z.string(), z.unknown()),
  tests: testRefs.optional(),
});
const createPayload = write.extend({ knownIds: z.array(z.string()).default([]) });
const updatePayload = write.extend({ id: z.string() });
const deletePayload = z.object({
  kind: z.enum(KINDS),
  key: z.string(),
  id: z.string(),
  /** What undoing the deletion creates again. */
  recreate: write.nullable(),
});

/** The ids of the tests a body names: the target's own, or those this restore created in an earlier phase. */
function testIds(refs: TestRefs | undefined, set: SetContext): string[] {
  if (!refs) return [];
  const created = new Map(
    set.items
      .filter((item) => item.status === 'done' && item.action === 'restore-create' && item.resultId)
      .map((item) => [String(item.details?.key ?? ''), String(item.resultId)]),
  );
  return refs.keys.flatMap((key) => {
    const id = refs.known[key] ?? created.get(key);
    return id ? [id] : [];
  });
}

const typeOf = (key: string) => (key.split(':')[0] ?? '') as PlatformTestType;
const nameOf = (kind: Kind, body: Json) =>
  String(
    kind === 'test'
      ? body.testName
      : kind === 'alert-rule'
        ? body.ruleName
        : kind === 'dashboard'
          ? body.title
          : kind === 'tag'
            ? `${String(body.key)}: ${String(body.value)}`
            : body.name,
  );

/** The platform's calls for each kind a restore writes. */
const PLATFORM: Record<
  Kind,
  {
    create(session: PlatformSession, key: string, body: Json, aid: string): Promise<string>;
    update(session: PlatformSession, key: string, id: string, body: Json, aid: string): Promise<unknown>;
    delete(session: PlatformSession, key: string, id: string, aid: string): Promise<unknown>;
    /** The group's items of this kind by name and id (to find a creation after a crash). */
    list(session: PlatformSession, key: string, aid: string): Promise<{ id: string; name: string }[]>;
  }
> = {
  test: {
    create: async (session, key, body, aid) =>
      (await session.tests.create(typeOf(key), body as TestCreateBody, aid)).testId,
    update: (session, key, id, body, aid) => session.tests.update(typeOf(key), id, body as TestCreateBody, aid),
    delete: (session, key, id, aid) => session.tests.delete(typeOf(key), id, aid),
    list: async (session, key, aid) =>
      (await session.tests.listByType(typeOf(key), aid)).map((test) => ({ id: test.testId, name: test.testName })),
  },
  'alert-rule': {
    create: async (session, _key, body, aid) => (await session.alertRules.create(body as never, aid)).ruleId,
    update: (session, _key, id, body, aid) => session.alertRules.update(id, body as never, aid),
    delete: (session, _key, id, aid) => session.alertRules.delete(id, aid),
    list: async (session, _key, aid) =>
      (await session.alertRules.list(aid)).map((rule) => ({ id: rule.ruleId, name: rule.ruleName })),
  },
  'suppression-window': {
    create: async (session, _key, body, aid) =>
      (await session.alertSuppressionWindows.create(body, aid)).alertSuppressionWindowId,
    update: (session, _key, id, body, aid) => session.alertSuppressionWindows.update(id, body, aid),
    delete: (session, _key, id, aid) => session.alertSuppressionWindows.delete(id, aid),
    list: async (session, _key, aid) =>
      (await session.alertSuppressionWindows.list(aid)).map((window) => ({
        id: window.alertSuppressionWindowId,
        name: window.name,
      })),
  },
  dashboard: {
    create: async (session, _key, body, aid) => (await session.dashboards.create(body, aid)).dashboardId,
    update: (session, _key, id, body, aid) => session.dashboards.update(id, body, aid),
    delete: (session, _key, id, aid) => session.dashboards.delete(id, aid),
    list: async (session, _key, aid) =>
      (await session.dashboards.list(aid)).map((dashboard) => ({ id: dashboard.dashboardId, name: dashboard.title })),
  },
  tag: {
    create: async (session, _key, body, aid) => {
      const { assignments, ...tag } = body as Json & { key: string; value: string; objectType: string };
      const created = await session.tags.create(tag, aid);
      const ids = (assignments as string[] | undefined) ?? [];
      if (ids.length)
        await session.tags.assign(
          created.id,
          ids.map((id) => ({ id, type: tag.objectType })),
          aid,
        );
      return created.id;
    },
    update: async (session, _key, id, body, aid) => {
      const ids = (body.assignments as string[] | undefined) ?? [];
      if (ids.length)
        await session.tags.assign(
          id,
          ids.map((testId) => ({ id: testId, type: String(body.objectType ?? 'test') })),
          aid,
        );
    },
    delete: () => Promise.reject(new Error('restore does not delete tags')),
    list: async (session, _key, aid) =>
      (await session.tags.list(aid)).map((tag) => ({ id: tag.id, name: `${String(tag.key)}: ${String(tag.value)}` })),
  },
};

/** A body with its tests' ids filled in, as the platform takes it (a dashboard's in its widgets' filters). */
function sent({ kind, body, tests }: z.infer<typeof write>, set: SetContext): Json {
  if (tests?.field) return { ...body, [tests.field]: testIds(tests, set) };
  if (kind !== 'dashboard' || !tests) return body;
  const widgets = ((body.widgets as Json[] | undefined) ?? []).map((widget) => {
    const filters = widget.filters as Json | undefined;
    if (!filters || !Array.isArray(filters.TEST)) return widget;
    return { ...widget, filters: { ...filters, TEST: testIds({ ...tests, keys: filters.TEST as string[] }, set) } };
  });
  return { ...body, widgets };
}

/** The writes of a restore, as the change-set engine performs, reconciles and undoes them. */
export const RESTORE_ACTIONS: Record<string, AnyChangeHandler> = {
  'restore-create': changeHandler({
    payload: createPayload,
    failure: 'Failed to restore the item',
    async execute(session, payload, item, set) {
      return {
        resultId: await PLATFORM[payload.kind].create(session, payload.key, sent(payload, set), item.aid),
        note: 'Created',
      };
    },
    /** Only an item of the name sent that the group did not have when planned: never a customer's own. */
    async reconcile(session, payload, item) {
      const name = nameOf(payload.kind, payload.body);
      const found = await PLATFORM[payload.kind].list(session, payload.key, item.aid);
      return found.find((entry) => entry.name === name && !payload.knownIds.includes(entry.id))?.id ?? null;
    },
    undo: (payload, item) =>
      item.resultId && payload.kind !== 'tag'
        ? {
            action: 'restore-delete',
            payload: { kind: payload.kind, key: payload.key, id: item.resultId, recreate: null },
            resultId: item.resultId,
          }
        : null,
  }),
  'restore-update': changeHandler({
    payload: updatePayload,
    failure: 'Failed to restore the item',
    async execute(session, payload, item, set) {
      await PLATFORM[payload.kind].update(session, payload.key, payload.id, sent(payload, set), item.aid);
      return { resultId: payload.id, note: 'Updated' };
    },
    // A PUT of the whole definition: sending it again changes nothing more.
    reconcile: sendAgain,
    /** Puts back the definition the item had when planned (kept whole in `before`). */
    undo: (payload, item) =>
      item.before && payload.kind !== 'tag'
        ? { action: 'restore-update', payload: { ...write.parse(item.before), id: payload.id }, resultId: payload.id }
        : null,
  }),
  'restore-delete': changeHandler({
    payload: deletePayload,
    failure: 'Failed to delete the item',
    execute: (session, payload, item) =>
      deleteOnce(payload.id, () => PLATFORM[payload.kind].delete(session, payload.key, payload.id, item.aid)),
    reconcile: sendAgain,
    /** What a restore deleted comes back as it was (under a new id: the platform gives ids). */
    undo: (payload) =>
      payload.recreate ? { action: 'restore-create', payload: { ...payload.recreate, knownIds: [] } } : null,
  }),
};

export { write as restoreWriteSchema };
export type RestoreWrite = z.infer<typeof write>;
