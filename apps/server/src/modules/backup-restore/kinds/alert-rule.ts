import { z } from 'zod';
import { alertRuleBodySchema } from '@ce/platform-client';
import { eachDetail, namesField, namingTests, testKeysOf, split, writable, type BackupKindDescriptor } from './kind.js';

/** Alert rules: the tests a rule covers by key in `config` (by id in `server`). */
export const alertRule: BackupKindDescriptor<'alert-rule'> = {
  kind: 'alert-rule',
  folder: 'alert-rules',
  serverFields: ['ruleId'],
  configShape: z.looseObject({ tests: namesField }),
  async read({ session, aid, emit, testKeys }) {
    const rules = await session.alertRules.list(aid);
    await eachDetail(rules, async (listed) => {
      const rule = await session.alertRules.get(listed.ruleId, aid);
      const { tests: _tests, testIds, ...rest } = rule;
      const parts = split(rest, alertRule.serverFields);
      parts.config.tests = testKeysOf(testIds, testKeys);
      parts.server.testIds = testIds;
      emit({ kind: 'alert-rule', key: rule.ruleName, name: rule.ruleName, ...parts });
    });
  },
  restore: {
    phase: 1,
    ...namingTests,
    nameOf: (body) => String(body.ruleName),
    undoesUpdate: true,
    platform: {
      create: async (session, _target, body, aid) =>
        (await session.alertRules.create(writable(alertRuleBodySchema, body), aid)).ruleId,
      update: (session, _target, id, body, aid) =>
        session.alertRules.update(id, writable(alertRuleBodySchema, body), aid),
      delete: (session, _target, id, aid) => session.alertRules.delete(id, aid),
      list: async (session, _target, aid) =>
        (await session.alertRules.list(aid)).map((rule) => ({ id: rule.ruleId, name: rule.ruleName })),
    },
  },
};
