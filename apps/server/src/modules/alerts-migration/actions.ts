import { z } from 'zod';
import { alertRuleBodySchema as ruleBody } from '@ce/platform-client';
import { changeHandler, deleteOnce, sendAgain, type AnyChangeHandler } from '../../core/change-sets/handlers.js';
import type { ChangeItemRow } from '../../core/change-sets/repository.js';

const windowBody = z.looseObject({ name: z.string(), testIds: z.array(z.string()) });

/** The platform permissions the writes need (named when the platform answers 403, checked before a plan). */
export const EDIT_RULES = 'Edit alert rules';
export const EDIT_WINDOWS = 'Edit alert suppression windows';

/** Whether a phase-0 item took its rule into its target (written, or found identical there). */
const tookIt = (item: ChangeItemRow) =>
  item.status === 'done' || (item.status === 'skipped' && item.details?.status === 'unchanged');

const sourceOf = (item: ChangeItemRow) => item.payload.sourceRuleId;

/** The alerts migration's writes, as the change-set engine performs, reconciles and undoes them. */
export const MIGRATION_ACTIONS: Record<string, AnyChangeHandler> = {
  'create-rule': changeHandler({
    payload: z.object({ body: ruleBody, sourceRuleId: z.string(), knownIds: z.array(z.string()).default([]) }),
    failure: 'Failed to create the alert rule',
    permission: EDIT_RULES,
    async execute(session, { body }, item) {
      return { resultId: (await session.alertRules.create(body, item.aid)).ruleId, note: 'Created' };
    },
    /** Only a rule of the name it sent that the group did not have when planned: never a customer's own. */
    async reconcile(session, { body, knownIds }, item) {
      const rules = await session.alertRules.list(item.aid);
      return rules.find((rule) => rule.ruleName === body.ruleName && !knownIds.includes(rule.ruleId))?.ruleId ?? null;
    },
    undo: (_payload, item) =>
      item.resultId ? { action: 'delete-rule', payload: { ruleId: item.resultId }, resultId: item.resultId } : null,
  }),
  'update-rule': changeHandler({
    payload: z.object({ ruleId: z.string(), body: ruleBody, sourceRuleId: z.string() }),
    failure: 'Failed to update the alert rule',
    permission: EDIT_RULES,
    async execute(session, { ruleId, body }, item) {
      await session.alertRules.update(ruleId, body, item.aid);
      return { resultId: ruleId, note: 'Updated' };
    },
    // A PUT of the whole definition: sending it again changes nothing more.
    reconcile: sendAgain,
    /** Puts back the definition the rule had when planned. */
    undo: ({ ruleId }, item) =>
      item.before
        ? { action: 'update-rule', payload: { ruleId, body: item.before, sourceRuleId: ruleId }, resultId: ruleId }
        : null,
  }),
  'delete-rule': changeHandler({
    payload: z.object({ ruleId: z.string(), sourceRuleId: z.string().optional() }),
    failure: 'Failed to delete the alert rule',
    permission: EDIT_RULES,
    execute: (session, { ruleId }, item) => deleteOnce(ruleId, () => session.alertRules.delete(ruleId, item.aid)),
    reconcile: sendAgain,
    /** A move deletes a source rule only once every target has it. */
    blockedBy({ sourceRuleId }, items) {
      if (!sourceRuleId) return null;
      const targets = items.filter((item) => item.phase === 0 && sourceOf(item) === sourceRuleId);
      return targets.every(tookIt) ? null : 'Kept in the source: not every target took this rule';
    },
    /** A rule deleted by a move comes back as it was (under a new id: the platform gives ids). */
    undo: (_payload, item) =>
      item.before
        ? { action: 'create-rule', payload: { body: item.before, sourceRuleId: item.resultId ?? '', knownIds: [] } }
        : null,
  }),
  'create-window': changeHandler({
    payload: z.object({ body: windowBody, sourceWindowId: z.string(), knownIds: z.array(z.string()).default([]) }),
    failure: 'Failed to create the suppression window',
    permission: EDIT_WINDOWS,
    async execute(session, { body }, item) {
      return {
        resultId: (await session.alertSuppressionWindows.create(body, item.aid)).alertSuppressionWindowId,
        note: 'Created',
      };
    },
    async reconcile(session, { body, knownIds }, item) {
      const windows = await session.alertSuppressionWindows.list(item.aid);
      return (
        windows.find((window) => window.name === body.name && !knownIds.includes(window.alertSuppressionWindowId))
          ?.alertSuppressionWindowId ?? null
      );
    },
    undo: (_payload, item) =>
      item.resultId ? { action: 'delete-window', payload: { windowId: item.resultId }, resultId: item.resultId } : null,
  }),
  'delete-window': changeHandler({
    payload: z.object({ windowId: z.string() }),
    failure: 'Failed to delete the suppression window',
    permission: EDIT_WINDOWS,
    execute: (session, { windowId }, item) =>
      deleteOnce(windowId, () => session.alertSuppressionWindows.delete(windowId, item.aid)),
    reconcile: sendAgain,
  }),
};
