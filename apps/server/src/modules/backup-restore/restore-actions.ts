import { z } from 'zod';
import type { EndpointScheduledType, PlatformSession, PlatformTestType, TestCreateBody } from '@ce/platform-client';
import {
  changeHandler,
  deleteOnce,
  sendAgain,
  type AnyChangeHandler,
  type SetContext,
} from '../../core/change-sets/handlers.js';

type Json = Record<string, unknown>;
const KINDS = [
  'test',
  'alert-rule',
  'suppression-window',
  'dashboard',
  'tag',
  'endpoint-label',
  'endpoint-scheduled-test',
  'endpoint-dynamic-test',
] as const;
type Kind = (typeof KINDS)[number];

/** Items a body names by key: resolved when the item is sent (one restored in phase 0 has its id then). */
const refs = z.object({
  field: z.enum(['testIds', 'assignments']).optional(),
  keys: z.array(z.string()).default([]),
  /** The target's own items by key, known when planned. */
  known: z.record(z.string(), z.string()).default({}),
});
type Refs = z.infer<typeof refs>;
const write = z.object({
  kind: z.enum(KINDS),
  key: z.string(),
  /** An endpoint scheduled test's type (its URL names it). */
  variant: z.string().optional(),
  body: z.record(z.string(), z.unknown()),
  tests: refs.optional(),
  /** An endpoint test's labels, sent as `endpointAgentLabels`. */
  labels: refs.optional(),
});
type Write = z.infer<typeof write>;
const createPayload = write.extend({ knownIds: z.array(z.string()).default([]) });
const updatePayload = write.extend({ id: z.string() });
const deletePayload = z.object({
  kind: z.enum(KINDS),
  key: z.string(),
  variant: z.string().optional(),
  id: z.string(),
  /** What undoing the deletion creates again. */
  recreate: write.nullable(),
});

/** The ids of the items of a kind a body names: the target's own, or those this restore created earlier. */
function idsOf(kind: Kind, named: Refs | undefined, set: SetContext): string[] {
  if (!named) return [];
  const created = new Map(
    set.items
      .filter(
        (item) =>
          item.status === 'done' && item.action === 'restore-create' && item.resultId && item.details?.kind === kind,
      )
      .map((item) => [String(item.details?.key ?? ''), String(item.resultId)]),
  );
  return named.keys.flatMap((key) => {
    const id = named.known[key] ?? created.get(key);
    return id ? [id] : [];
  });
}

const typeOf = (key: string) => (key.split(':')[0] ?? '') as PlatformTestType;
const NAME_FIELD: Record<Kind, string> = {
  test: 'testName',
  'alert-rule': 'ruleName',
  'suppression-window': 'name',
  dashboard: 'title',
  tag: 'key',
  'endpoint-label': 'name',
  'endpoint-scheduled-test': 'testName',
  'endpoint-dynamic-test': 'testName',
};
const nameOf = (kind: Kind, body: Json) =>
  kind === 'tag' ? `${String(body.key)}: ${String(body.value)}` : String(body[NAME_FIELD[kind]]);

/** What the endpoint tests' POST takes (agents flat), and what their PATCH may change. */
const ENDPOINT_CREATE = [
  'testName',
  'server',
  'port',
  'url',
  'interval',
  'protocol',
  'application',
  'isPrioritized',
  'networkMeasurements',
  'hasPing',
  'hasTraceroute',
  'targetResponseTime',
  'tcpProbeMode',
  'ipVersion',
  'agentSelectorType',
  'agents',
  'endpointAgentLabels',
  'maxMachines',
];
const ENDPOINT_PATCH = [
  'testName',
  'interval',
  'protocol',
  'isEnabled',
  'tcpProbeMode',
  'server',
  'port',
  'url',
  'application',
];
const pick = (body: Json, fields: string[]) =>
  Object.fromEntries(fields.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]));
const scheduledType = (target: Pick<Write, 'variant'>) =>
  (target.variant ?? 'agent-to-server') as EndpointScheduledType;

type Target = Pick<Write, 'key' | 'variant'>;
/** The platform's calls for each kind a restore writes. */
const PLATFORM: Record<
  Kind,
  {
    create(session: PlatformSession, target: Target, body: Json, aid: string): Promise<string>;
    update(session: PlatformSession, target: Target, id: string, body: Json, aid: string): Promise<unknown>;
    delete(session: PlatformSession, target: Target, id: string, aid: string): Promise<unknown>;
    /** The group's items of this kind by name and id (to find a creation after a crash). */
    list(session: PlatformSession, target: Target, aid: string): Promise<{ id: string; name: string }[]>;
  }
> = {
  test: {
    create: async (session, { key }, body, aid) =>
      (await session.tests.create(typeOf(key), body as TestCreateBody, aid)).testId,
    update: (session, { key }, id, body, aid) => session.tests.update(typeOf(key), id, body as TestCreateBody, aid),
    delete: (session, { key }, id, aid) => session.tests.delete(typeOf(key), id, aid),
    list: async (session, { key }, aid) =>
      (await session.tests.listByType(typeOf(key), aid)).map((test) => ({ id: test.testId, name: test.testName })),
  },
  'alert-rule': {
    create: async (session, _target, body, aid) => (await session.alertRules.create(body as never, aid)).ruleId,
    update: (session, _target, id, body, aid) => session.alertRules.update(id, body as never, aid),
    delete: (session, _target, id, aid) => session.alertRules.delete(id, aid),
    list: async (session, _target, aid) =>
      (await session.alertRules.list(aid)).map((rule) => ({ id: rule.ruleId, name: rule.ruleName })),
  },
  'suppression-window': {
    create: async (session, _target, body, aid) =>
      (await session.alertSuppressionWindows.create(body, aid)).alertSuppressionWindowId,
    update: (session, _target, id, body, aid) => session.alertSuppressionWindows.update(id, body, aid),
    delete: (session, _target, id, aid) => session.alertSuppressionWindows.delete(id, aid),
    list: async (session, _target, aid) =>
      (await session.alertSuppressionWindows.list(aid)).map((window) => ({
        id: window.alertSuppressionWindowId,
        name: window.name,
      })),
  },
  dashboard: {
    create: async (session, _target, body, aid) => (await session.dashboards.create(body, aid)).dashboardId,
    update: (session, _target, id, body, aid) => session.dashboards.update(id, body, aid),
    delete: (session, _target, id, aid) => session.dashboards.delete(id, aid),
    list: async (session, _target, aid) =>
      (await session.dashboards.list(aid)).map((dashboard) => ({ id: dashboard.dashboardId, name: dashboard.title })),
  },
  tag: {
    create: async (session, _target, body, aid) => {
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
    // Assignments add up on the platform: an update assigns the tests the backup had.
    update: async (session, _target, id, body, aid) => {
      const ids = (body.assignments as string[] | undefined) ?? [];
      if (ids.length)
        await session.tags.assign(
          id,
          ids.map((testId) => ({ id: testId, type: String(body.objectType ?? 'test') })),
          aid,
        );
    },
    delete: (session, _target, id, aid) => session.tags.delete(id, aid),
    list: async (session, _target, aid) =>
      (await session.tags.list(aid)).map((tag) => ({ id: tag.id, name: `${String(tag.key)}: ${String(tag.value)}` })),
  },
  'endpoint-label': {
    create: async (session, _target, body, aid) => (await session.endpointLabels.create(body, aid)).id,
    update: (session, _target, id, body, aid) => session.endpointLabels.update(id, body, aid),
    delete: (session, _target, id, aid) => session.endpointLabels.delete(id, aid),
    list: async (session, _target, aid) => {
      const labels: { id: string; name: string }[] = [];
      for await (const label of session.endpointLabels.list(aid)) labels.push({ id: label.id, name: label.name });
      return labels;
    },
  },
  'endpoint-scheduled-test': {
    // A POST creates a test enabled: one the backup had disabled is then disabled (a PATCH).
    create: async (session, target, body, aid) => {
      const created = await session.endpointTests.createScheduled(
        scheduledType(target),
        pick(body, ENDPOINT_CREATE),
        aid,
      );
      if (body.isEnabled === false)
        await session.endpointTests.updateScheduled(scheduledType(target), created.testId, { isEnabled: false }, aid);
      return created.testId;
    },
    update: (session, target, id, body, aid) =>
      session.endpointTests.updateScheduled(scheduledType(target), id, pick(body, ENDPOINT_PATCH), aid),
    delete: (session, target, id, aid) => session.endpointTests.deleteScheduled(scheduledType(target), id, aid),
    list: async (session, target, aid) =>
      (await session.endpointTests.listScheduled(aid))
        .filter((test) => test.type === scheduledType(target))
        .map((test) => ({ id: test.testId, name: test.testName })),
  },
  'endpoint-dynamic-test': {
    create: async (session, _target, body, aid) => {
      const created = await session.endpointTests.createDynamic(pick(body, ENDPOINT_CREATE), aid);
      if (body.isEnabled === false)
        await session.endpointTests.updateDynamic(created.testId, { isEnabled: false }, aid);
      return created.testId;
    },
    update: (session, _target, id, body, aid) =>
      session.endpointTests.updateDynamic(id, pick(body, ENDPOINT_PATCH), aid),
    delete: (session, _target, id, aid) => session.endpointTests.deleteDynamic(id, aid),
    list: async (session, _target, aid) =>
      (await session.endpointTests.listDynamic(aid)).map((test) => ({ id: test.testId, name: test.testName })),
  },
};

/** A body with the ids of what it names filled in (tests; a dashboard's in its widgets' filters; endpoint labels). */
function sent({ kind, body, tests, labels }: Write, set: SetContext): Json {
  if (labels) return { ...body, endpointAgentLabels: idsOf('endpoint-label', labels, set) };
  if (tests?.field) return { ...body, [tests.field]: idsOf('test', tests, set) };
  if (kind !== 'dashboard' || !tests) return body;
  const widgets = ((body.widgets as Json[] | undefined) ?? []).map((widget) => {
    const filters = widget.filters as Json | undefined;
    if (!filters || !Array.isArray(filters.TEST)) return widget;
    return {
      ...widget,
      filters: { ...filters, TEST: idsOf('test', { ...tests, keys: filters.TEST as string[] }, set) },
    };
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
        resultId: await PLATFORM[payload.kind].create(session, payload, sent(payload, set), item.aid),
        note: 'Created',
      };
    },
    /** Only an item of the name sent that the group did not have when planned: never a customer's own. */
    async reconcile(session, payload, item) {
      const name = nameOf(payload.kind, payload.body);
      const found = await PLATFORM[payload.kind].list(session, payload, item.aid);
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
      await PLATFORM[payload.kind].update(session, payload, payload.id, sent(payload, set), item.aid);
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
      deleteOnce(payload.id, () => PLATFORM[payload.kind].delete(session, payload, payload.id, item.aid)),
    reconcile: sendAgain,
    /** What a restore deleted comes back as it was (under a new id: the platform gives ids). */
    undo: (payload) =>
      payload.recreate ? { action: 'restore-create', payload: { ...payload.recreate, knownIds: [] } } : null,
  }),
};

export { write as restoreWriteSchema };
export type RestoreWrite = z.infer<typeof write>;
