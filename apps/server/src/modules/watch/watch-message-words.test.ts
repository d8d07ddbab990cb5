import { describe, expect, it } from 'vitest';
import {
  compareRuns,
  driftLine,
  foldReferences,
  regroupedSince,
  whatToSay,
  type KeptFindings,
} from './watch-changes.js';
import { watchMessage } from './watch-message.js';
import { waiversOfOthers, type WaiverInForce } from './watch-findings.js';

const context = {
  organizationName: 'Acme',
  accountGroups: ['Production'],
  reportUrl: null,
  driftUrl: 'https://toolkit.example/home/customers/9000',
  nextRunAt: null,
};
const plain = (text: string) => text.replace(/\\(.)/g, '$1');
const cy = { type: 'user', id: '3', name: 'Cy', detail: 'never signed in' };
const checks = (users: (typeof cy)[]): KeptFindings => ({
  score: users.length ? 70 : 100,
  checks: [
    { id: 'inactive-users', title: 'Inactive users', status: users.length ? 'warn' : 'pass', weight: 10, items: users },
    {
      id: 'login-frequency',
      title: 'Login frequency',
      status: users.length ? 'warn' : 'pass',
      weight: 10,
      items: users.map((user) => ({ ...user, detail: 'no sign-in for 120 days' })),
    },
  ],
});
const speakOnAny = { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false };

describe("the watch message's words", () => {
  it('says one person named by two checks on one line with both checks', () => {
    const changes = compareRuns(checks([]), checks([cy]), [], false);
    expect(changes.newFindings).toHaveLength(2);
    const message = plain(watchMessage('changes', changes, context));
    expect(message).toContain(
      '**New findings (2)**\n- Cy: Inactive users (never signed in); Login frequency (no sign-in for 120 days)',
    );
    expect(message.match(/Cy/g)).toHaveLength(1);
    const resolved = plain(watchMessage('changes', compareRuns(checks([cy]), checks([]), [], false), context));
    expect(resolved).toContain('**Resolved (2)**\n- Cy: Inactive users, Login frequency');
  });

  it("says a deleted test's dashboard, which the platform left as it was, on the removal's line", () => {
    const lines = foldReferences([
      driftLine('Production', {
        kind: 'test',
        name: 'Portal',
        change: 'removed',
        fields: [],
        stillNamedBy: [{ kind: 'dashboard', name: 'SaaS Apps Network Performance' }],
      }),
      driftLine('Production', {
        kind: 'alert-rule',
        name: 'Default HTTP rule',
        change: 'changed',
        fields: [
          { path: 'tests', before: '["http-server: Other","http-server: Portal"]', after: '["http-server: Other"]' },
        ],
      }),
    ]);
    const message = plain(watchMessage('changes', compareRuns(null, null, lines, false), context));
    expect(message).toContain(
      "**Changed since the last backup (1)**\n- Production: test 'Portal' removed, taken out of alert rule 'Default HTTP rule', still named by dashboard 'SaaS Apps Network Performance'",
    );
    expect(message).not.toContain("dashboard 'SaaS Apps Network Performance' changed");
  });
});

describe('a waiver of a watch’s finding made by someone other than its owner', () => {
  const waiver = (over: Partial<WaiverInForce>): WaiverInForce => ({
    id: 'w1',
    checkId: 'inactive-users',
    itemKey: 'user:3',
    itemName: 'Cy',
    reason: 'Service account',
    expiresAt: new Date('2027-11-30T10:00:00Z'),
    createdBy: 'engineering-id',
    createdByEmail: 'engineering@demo.local',
    ...over,
  });
  const titles = new Map([['inactive-users', 'Inactive users']]);

  it("makes the owner's next run speak, saying who, why and until when; once", () => {
    const waivers = [waiver({}), waiver({ id: 'w2', checkId: 'login-frequency', createdBy: 'owner-id' })];
    const keys = ['inactive-users:user:3', 'login-frequency:user:3'];
    const others = waiversOfOthers(waivers, 'owner-id', keys, [], titles);
    expect(others.othersWaivers).toEqual(['w1']);
    const changes = { ...compareRuns(checks([]), checks([]), [], false), ...others };
    // Nothing else changed, and the owner asked to hear only of score drops: it speaks all the same.
    expect(whatToSay(changes, { ...speakOnAny, anyChange: false }, false)).toBe('changes');
    expect(plain(watchMessage('changes', changes, context))).toContain(
      '**Waived by someone else (1)**\n- Inactive users: Cy, waived by engineering@demo.local until 2027-11-30: “Service account”',
    );
    // The next run: said already, not again; a waiver of a finding the watch does not have is not its news.
    expect(waiversOfOthers(waivers, 'owner-id', keys, ['w1'], titles).waivedByOthers).toEqual([]);
    expect(waiversOfOthers(waivers, 'owner-id', ['unused-tests:test:9'], [], titles)).toEqual({
      waivedByOthers: [],
      othersWaivers: [],
    });
    const whole = waiversOfOthers(
      [waiver({ itemKey: null, createdByEmail: null })],
      'owner-id',
      ['inactive-users:*'],
      [],
      titles,
    );
    expect(whole.waivedByOthers[0]).toMatchObject({ name: null, by: null });
    expect(plain(watchMessage('changes', { ...changes, ...whole }, context))).toContain(
      '- Inactive users: the whole check, waived by a former user until 2027-11-30',
    );
  });

  it('says an edit of the account groups as a new starting point, with the groups added and removed', () => {
    const production = { aid: '1', accountGroupName: 'Production' };
    const staging = { aid: '2', accountGroupName: 'Staging' };
    expect(regroupedSince(null, [production])).toBeNull();
    expect(regroupedSince([production], [{ aid: '1', accountGroupName: 'Production (renamed)' }])).toBeNull();
    const regrouped = regroupedSince([production, { aid: '3', accountGroupName: 'Lab_*1*' }], [production, staging]);
    expect(regrouped).toEqual({ added: ['Staging'], removed: ['Lab_*1*'] });
    const changes = { ...compareRuns(null, checks([cy]), [], true), regrouped };
    expect(whatToSay(changes, speakOnAny, false)).toBe('baseline');
    const message = plain(watchMessage('baseline', changes, context));
    expect(message).toContain(
      'Account groups changed since the last run (added: Staging; removed: Lab_*1*): this run is the new starting point. Score 70/100, 2 open findings.',
    );
    expect(message).not.toContain('Watch started.');
  });
});
