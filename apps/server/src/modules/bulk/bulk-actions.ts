import { z } from 'zod';
import { BULK_MESSAGES } from '@ce/contract';
import { PLATFORM_TEST_TYPES, PlatformError, testCreateBodySchema, type PlatformSession } from '@ce/platform-client';

/**
 * What one item of a bulk run does on the platform. An item row keeps its action in a column and its
 * payload as jsonb; `itemPayload` reads both back through this union, so nothing is assumed of the jsonb.
 */
export const itemPayloadSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('create-test'),
    type: z.enum(PLATFORM_TEST_TYPES),
    body: testCreateBodySchema,
    /** Tests of that name in the group when the run was planned: never this run's, never adopted. */
    knownIds: z.array(z.string()).default([]),
  }),
  z.object({ action: z.literal('delete-test'), type: z.enum(PLATFORM_TEST_TYPES), testId: z.string() }),
  z.object({ action: z.literal('delete-agent'), agentId: z.string() }),
  z.object({
    action: z.literal('label-tests'),
    tag: z.object({ key: z.string(), value: z.string(), color: z.string() }),
    testIds: z.array(z.string()),
  }),
  z.object({
    action: z.literal('invite-user'),
    email: z.string(),
    name: z.string(),
    roleId: z.string(),
    aids: z.array(z.string()),
  }),
]);
export type ItemPayload = z.infer<typeof itemPayloadSchema>;
export type ItemAction = ItemPayload['action'];

/** The payload column of an item of `action` (what is stored beside the action). */
export type StoredPayload<A extends ItemAction> = Omit<Extract<ItemPayload, { action: A }>, 'action'>;

/** An item as the actions see it; `startedAt` is when it was claimed for sending. */
export interface ItemContext {
  aid: string;
  subject: string;
  startedAt?: Date | null;
}

/** Clocks of the platform and of this server may differ by this much. */
const CLOCK_SKEW_MS = 60_000;

export type ItemResult = { resultId?: string | null; note?: string | null };

interface ActionHandler<P> {
  /** What a failure says when the platform gave no words of its own. */
  failure: string;
  execute(session: PlatformSession, payload: P, item: ItemContext): Promise<ItemResult>;
  /**
   * After a crash, whether an item that was sent took effect: the id it produced, or null to send it
   * again (deletions answer 404 when repeated and labelling is idempotent, so sending again is safe).
   */
  reconcile(session: PlatformSession, payload: P, item: ItemContext): Promise<string | null>;
}

type PayloadOf<A extends ItemAction> = Extract<ItemPayload, { action: A }>;
type ActionTable = { [A in ItemAction]: ActionHandler<PayloadOf<A>> };

/** A deletion that answers 404 was done before (by an earlier attempt or by someone else). */
async function deleteOnce(id: string, remove: () => Promise<unknown>): Promise<ItemResult> {
  try {
    await remove();
    return { resultId: id, note: 'Deleted' };
  } catch (error) {
    if (error instanceof PlatformError && error.status === 404) return { resultId: id, note: 'Already deleted' };
    throw error;
  }
}

const sendAgain = async () => null;

const ACTIONS: ActionTable = {
  'create-test': {
    failure: BULK_MESSAGES.createFailed,
    async execute(session, { type, body }, item) {
      return { resultId: (await session.tests.create(type, body, item.aid)).testId };
    },
    /**
     * Only a test this run can show it created: the name it sent, an id the group did not have when the
     * run was planned, and created after the item was claimed. Anything else (a customer's test of the
     * same name) is never adopted, so an undo can never delete it; sending again lets the platform judge.
     */
    async reconcile(session, { type, body, knownIds }, item) {
      const tests = await session.tests.listByType(type, item.aid);
      const since = item.startedAt ? item.startedAt.getTime() - CLOCK_SKEW_MS : Number.NEGATIVE_INFINITY;
      const ours = tests.find(
        (candidate) =>
          candidate.testName === body.testName &&
          !knownIds.includes(candidate.testId) &&
          (!candidate.createdDate || Date.parse(candidate.createdDate) >= since),
      );
      return ours?.testId ?? null;
    },
  },
  'delete-test': {
    failure: 'Failed to delete test',
    execute: (session, { type, testId }, item) =>
      deleteOnce(testId, () => session.tests.delete(type, testId, item.aid)),
    reconcile: sendAgain,
  },
  'delete-agent': {
    failure: 'Failed to delete agent',
    execute: (session, { agentId }, item) => deleteOnce(agentId, () => session.agents.delete(agentId, item.aid)),
    reconcile: sendAgain,
  },
  'label-tests': {
    failure: 'Failed to label tests',
    async execute(session, { tag, testIds }, item) {
      const existing = (await session.tags.list(item.aid)).find(
        (candidate) => candidate.key === tag.key && candidate.value === tag.value && candidate.objectType === 'test',
      );
      const target = existing ?? (await session.tags.create({ ...tag, objectType: 'test' }, item.aid));
      await session.tags.assign(
        target.id,
        testIds.map((id) => ({ id, type: 'test' })),
        item.aid,
      );
      return {
        resultId: target.id,
        note: `${existing ? 'Existing label' : 'New label'} on ${testIds.length} test${testIds.length === 1 ? '' : 's'}`,
      };
    },
    reconcile: sendAgain,
  },
  'invite-user': {
    failure: 'Failed to invite user',
    async execute(session, { email, name, roleId, aids }, item) {
      const user = await session.users.invite(
        {
          name: name || email.split('@')[0] || email,
          email,
          loginAccountGroupId: aids[0] ?? item.aid,
          accountGroupRoles: aids.map((aid) => ({ accountGroupId: aid, roleIds: [roleId] })),
        },
        item.aid,
      );
      return { resultId: user.uid, note: 'Invited' };
    },
    async reconcile(session, _payload, item) {
      const users = await session.users.list();
      return users.find((candidate) => candidate.email.toLowerCase() === item.subject)?.uid ?? null;
    },
  },
};

const jsonObject = z.record(z.string(), z.unknown());

/** Reads an item's action and jsonb payload back into one checked value. */
export function itemPayload(item: { action: string; payload: unknown }): ItemPayload {
  return itemPayloadSchema.parse({ ...jsonObject.parse(item.payload), action: item.action });
}

/** Performs one item against the platform. */
export function executeItem<A extends ItemAction>(
  session: PlatformSession,
  payload: PayloadOf<A>,
  item: ItemContext,
): Promise<ItemResult> {
  const handler: ActionTable[A] = ACTIONS[payload.action];
  return handler.execute(session, payload, item);
}

/** After a crash: the id an item that was sent produced, or null to send it again. */
export function reconcileItem<A extends ItemAction>(
  session: PlatformSession,
  payload: PayloadOf<A>,
  item: ItemContext,
): Promise<string | null> {
  const handler: ActionTable[A] = ACTIONS[payload.action];
  return handler.reconcile(session, payload, item);
}

export function failureOf(action: ItemAction): string {
  return ACTIONS[action].failure;
}
