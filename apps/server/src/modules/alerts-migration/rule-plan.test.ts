import { describe, expect, it } from 'vitest';
import type { AlertRule } from '@ce/platform-client';
import { planRules, type RulePlanOptions, type RuleTarget } from './rule-plan.js';

const rule = (changes: Partial<AlertRule>): AlertRule => ({
  ruleId: '1',
  ruleName: 'Latency',
  expression: '((responseTime > 300 ms))',
  alertType: 'http-server',
  roundsViolatingOutOf: 3,
  roundsViolatingRequired: 2,
  severity: 'major',
  isDefault: false,
  testIds: [],
  notifications: {},
  ...changes,
});
const sourceTests = [
  { testId: 's1', testName: 'Portal', type: 'http-server' },
  { testId: 's2', testName: 'Checkout', type: 'http-server' },
];
const target = (changes: Partial<RuleTarget> = {}): RuleTarget => ({
  aid: 't1',
  accountGroupName: 'EMEA',
  sameOrganization: true,
  rules: [],
  tests: [
    { testId: 't-portal', testName: 'Portal', type: 'http-server' },
    { testId: 't-checkout-dns', testName: 'Checkout', type: 'dns-server' },
  ],
  webhooks: [{ integrationId: 'hook-emea', integrationName: 'NOC hook' }],
  ...changes,
});
const options: RulePlanOptions = {
  onConflict: 'ask',
  whenNoTestsLeft: 'keep',
  keepDefault: false,
  keepRecipients: false,
};
const plan = (rules: AlertRule[], into = target(), chosen: Partial<RulePlanOptions> = {}) =>
  planRules({ rules, tests: sourceTests }, [into], { ...options, ...chosen });

describe('planning alert rules into other account groups', () => {
  it('creates a new rule with its tests mapped by name and type, and lists those the target lacks', () => {
    const [item] = plan([rule({ testIds: ['s1', 's2'] })]);
    expect(item).toMatchObject({ action: 'create', status: 'create', targetAid: 't1', before: null });
    expect(item?.after?.testIds).toEqual(['t-portal']);
    expect(item?.resolved).toEqual([{ kind: 'test', name: 'Portal', from: 's1', to: 't-portal' }]);
    expect(item?.dropped).toEqual([
      { kind: 'test', name: 'Checkout', reason: 'No http-server test of this name in EMEA' },
    ]);
  });

  it('leaves a rule out when none of its tests exist in the target, if asked; otherwise keeps it without them', () => {
    const orphan = rule({ testIds: ['s2'] });
    expect(plan([orphan], target(), { whenNoTestsLeft: 'skip' })[0]).toMatchObject({
      action: 'skip',
      status: 'skip',
      reason: 'None of its tests exist in EMEA',
    });
    expect(plan([orphan])[0]).toMatchObject({ action: 'create', after: { testIds: [] } });
  });

  it('finds an identical rule unchanged, and a different one a conflict with its field differences', () => {
    const source = rule({ testIds: ['s1'] });
    const same = rule({ ruleId: 'x', testIds: ['t-portal'] });
    expect(plan([source], target({ rules: [same] }))[0]).toMatchObject({ action: 'skip', status: 'unchanged' });
    const [conflict] = plan([source], target({ rules: [rule({ ruleId: 'x', severity: 'minor', testIds: [] })] }));
    expect(conflict).toMatchObject({ action: 'skip', status: 'conflict' });
    expect(conflict?.differences).toEqual([
      { field: 'severity', before: 'minor', after: 'major' },
      { field: 'testIds', before: [], after: ['t-portal'] },
    ]);
  });

  it('resolves a conflict as chosen: update it, skip it, or create under the first free name', () => {
    const source = rule({});
    const into = target({
      rules: [rule({ ruleId: 'x', severity: 'minor' }), rule({ ruleId: 'y', ruleName: 'Latency (2)' })],
    });
    expect(plan([source], into, { onConflict: 'update' })[0]).toMatchObject({
      action: 'update',
      before: { severity: 'minor' },
      after: { severity: 'major' },
    });
    expect(plan([source], into, { onConflict: 'skip' })[0]).toMatchObject({ action: 'skip', status: 'skip' });
    expect(plan([source], into, { onConflict: 'rename' })[0]).toMatchObject({
      action: 'create',
      name: 'Latency (3)',
      after: { ruleName: 'Latency (3)' },
    });
  });

  it("drops the source organization's recipients in another organization, each with its reason, unless asked", () => {
    const notifications = { email: { recipients: ['noc@acme.example.com', 'oncall@acme.example.com'], message: '' } };
    const [elsewhere] = plan([rule({ notifications })], target({ sameOrganization: false }));
    expect(elsewhere?.after?.notifications).toEqual({});
    expect(elsewhere?.dropped).toEqual(
      ['noc@acme.example.com', 'oncall@acme.example.com'].map((name) => ({
        kind: 'recipient',
        name,
        reason: "An email address of the source's organization: kept in another organization only when asked",
      })),
    );
    const [kept] = plan([rule({ notifications })], target({ sameOrganization: false }), { keepRecipients: true });
    expect(kept?.after?.notifications).toEqual(notifications);
    expect(kept?.dropped).toEqual([]);
    const [within] = plan([rule({ notifications })]);
    expect(within?.after?.notifications).toEqual(notifications);
    expect(within?.dropped).toEqual([]);
  });

  it('keeps recipients, maps webhooks by name, and drops what the target organization cannot match', () => {
    const notifications = {
      email: { recipients: ['noc@example.com'], message: '' },
      customWebhook: [
        { integrationId: 'hook-src', integrationName: 'NOC hook', integrationType: 'custom-webhook' },
        { integrationId: 'hook-x', integrationName: 'Gone hook', integrationType: 'custom-webhook' },
      ],
      thirdParty: [{ integrationId: 'sl-1', integrationType: 'slack' }],
    };
    const [elsewhere] = plan([rule({ notifications })], target({ sameOrganization: false }), { keepRecipients: true });
    expect(elsewhere?.after?.notifications).toEqual({
      email: { recipients: ['noc@example.com'], message: '' },
      customWebhook: [{ integrationId: 'hook-emea', integrationName: 'NOC hook', integrationType: 'custom-webhook' }],
    });
    expect(elsewhere?.dropped.map(({ name, reason }) => [name, reason])).toEqual([
      ['slack', 'A third-party integration cannot be matched in another organization: add it there again'],
      ['Gone hook', 'No integration of this name in the target organization'],
    ]);
    const [within] = plan([rule({ notifications })]);
    expect(within?.after?.notifications?.thirdParty).toEqual([{ integrationId: 'sl-1', integrationType: 'slack' }]);
  });

  it('makes a default rule default in the target only when asked, and plans each target on its own', () => {
    const defaultRule = rule({ isDefault: true });
    expect(plan([defaultRule])[0]?.after?.isDefault).toBe(false);
    expect(plan([defaultRule], target(), { keepDefault: true })[0]?.after?.isDefault).toBe(true);
    const items = planRules({ rules: [defaultRule], tests: sourceTests }, [target(), target({ aid: 't2' })], options);
    expect(items.map((item) => [item.targetAid, item.action])).toEqual([
      ['t1', 'create'],
      ['t2', 'create'],
    ]);
  });

  it("takes the user's answer for one conflict over the choice for all, and keeps the target's rule id", () => {
    const source = rule({});
    const into = target({ rules: [rule({ ruleId: 'x', severity: 'minor' })] });
    const decided = planRules(
      { rules: [source], tests: sourceTests },
      [into, target({ aid: 't2', rules: [rule({ ruleId: 'y', severity: 'minor' })] })],
      {
        ...options,
        decide: (ruleId, aid) => (ruleId === '1' && aid === 't1' ? 'update' : undefined),
      },
    );
    expect(decided.map((item) => [item.targetAid, item.status, item.existingId])).toEqual([
      ['t1', 'update', 'x'],
      ['t2', 'conflict', 'y'],
    ]);
    expect(decided[0]).toMatchObject({ sourceId: '1', sourceName: 'Latency', knownIds: ['x'] });
  });
});
