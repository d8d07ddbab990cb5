import { z } from 'zod';
import { BULK_MESSAGES } from '@ce/contract';
import { PLATFORM_TEST_TYPES, testCreateBodySchema } from '@ce/platform-client';
import { changeHandler, deleteOnce, sendAgain, type AnyChangeHandler } from '../../core/change-sets/handlers.js';

/** What each action of the bulk tools stores beside its name (the item's payload, jsonb). */
export const BULK_PAYLOADS = {
  'create-test': z.object({
    type: z.enum(PLATFORM_TEST_TYPES),
    body: testCreateBodySchema,
    /** Tests of that name in the group when the run was planned: never this run's, never adopted. */
    knownIds: z.array(z.string()).default([]),
  }),
  'delete-test': z.object({ type: z.enum(PLATFORM_TEST_TYPES), testId: z.string() }),
  'delete-agent': z.object({ agentId: z.string() }),
  'label-tests': z.object({
    tag: z.object({ key: z.string(), value: z.string(), color: z.string() }),
    testIds: z.array(z.string()),
  }),
  'invite-user': z.object({
    email: z.string(),
    name: z.string(),
    roleId: z.string(),
    aids: z.array(z.string()),
  }),
};
export type ItemAction = keyof typeof BULK_PAYLOADS;

/** The payload an item of `action` stores. */
export type StoredPayload<A extends ItemAction> = z.input<(typeof BULK_PAYLOADS)[A]>;

/** Clocks of the platform and of this server may differ by this much. */
const CLOCK_SKEW_MS = 60_000;

/** The bulk tools' actions, as the change-set engine performs, reconciles and undoes them. */
export const BULK_ACTIONS: Record<ItemAction, AnyChangeHandler> = {
  'create-test': changeHandler({
    payload: BULK_PAYLOADS['create-test'],
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
    /** What a tests run created, its undo deletes (and nothing else). */
    undo: ({ type }, item) =>
      item.resultId
        ? { action: 'delete-test', payload: { type, testId: item.resultId }, resultId: item.resultId }
        : null,
  }),
  'delete-test': changeHandler({
    payload: BULK_PAYLOADS['delete-test'],
    failure: 'Failed to delete test',
    execute: (session, { type, testId }, item) =>
      deleteOnce(testId, () => session.tests.delete(type, testId, item.aid)),
    reconcile: sendAgain,
  }),
  'delete-agent': changeHandler({
    payload: BULK_PAYLOADS['delete-agent'],
    failure: 'Failed to delete agent',
    execute: (session, { agentId }, item) => deleteOnce(agentId, () => session.agents.delete(agentId, item.aid)),
    reconcile: sendAgain,
  }),
  'label-tests': changeHandler({
    payload: BULK_PAYLOADS['label-tests'],
    failure: 'Failed to label tests',
    async execute(session, { tag, testIds }, item, { exclusively }) {
      // One label per key and value in a group, however many runs (on any instance) label with it at once.
      const { existing, target } = await exclusively(`label:${item.aid}:${tag.key}=${tag.value}`, async () => {
        const found = (await session.tags.list(item.aid)).find(
          (candidate) => candidate.key === tag.key && candidate.value === tag.value && candidate.objectType === 'test',
        );
        return {
          existing: found,
          target: found ?? (await session.tags.create({ ...tag, objectType: 'test' }, item.aid)),
        };
      });
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
  }),
  'invite-user': changeHandler({
    payload: BULK_PAYLOADS['invite-user'],
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
  }),
};
