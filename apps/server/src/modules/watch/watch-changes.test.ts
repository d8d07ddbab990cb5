import { watchMessage } from './watch-message.js';
import { describe, expect, it } from 'vitest';
import { compareRuns, foldReferences, whatToSay, type DriftLine, type KeptFindings } from './watch-changes.js';
import { withoutWaived } from './watch-findings.js';

const user = (id: string, name: string) => ({ type: 'user', id, name, detail: 'never signed in' });
const findings = (
  score: number,
  inactive: ReturnType<typeof user>[],
  status: 'warn' | 'fail' = 'warn',
): KeptFindings => ({
  score,
  checks: [
    {
      id: 'inactive-users',
      title: 'Inactive users',
      status: inactive.length ? status : 'pass',
      weight: 10,
      items: inactive,
    },
    { id: 'unused-tests', title: 'Unused tests', status: 'pass', weight: 10, items: [] },
  ],
});
const speakOnAny = { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: false, weeklyQuietLine: false };
const context = {
  organizationName: 'Acme [Corp]',
  accountGroups: ['Production'],
  reportUrl: 'https://toolkit.example/home/reports?report=1',
  driftUrl: 'https://toolkit.example/home/tools/backup-restore',
  nextRunAt: null,
};

describe('what a watch run says: only what changed since the previous run', () => {
  it('names new and resolved findings by item, and the checks whose status moved the score', () => {
    const changes = compareRuns(
      findings(80, [user('1', 'Ann'), user('2', 'Bob')]),
      findings(70, [user('2', 'Bob'), user('3', 'Cy')], 'fail'),
      [],
      false,
    );
    expect(changes.newFindings.map((finding) => finding.name)).toEqual(['Cy']);
    expect(changes.resolvedFindings.map((finding) => finding.name)).toEqual(['Ann']);
    expect(changes.checks).toEqual([{ id: 'inactive-users', title: 'Inactive users', before: 'warn', after: 'fail' }]);
    const message = watchMessage('changes', changes, context);
    expect(message).toContain('**Account Watch: Acme \\[Corp\\]** (Production)');
    expect(message).toContain('Score 80 → 70 (\\-10)');
    expect(message).toContain('- Inactive users: Cy (never signed in)');
    expect(message).toContain('**Resolved (1)**\n- Inactive users: Ann');
    expect(message).toContain('Full report: https://toolkit.example/home/reports?report=1');
    // No drift, no drift link.
    expect(message).not.toContain('Drift:');
  });

  it('says nothing when nothing changed, unless the weekly quiet line is due; the first run always speaks', () => {
    const same = compareRuns(findings(80, [user('1', 'Ann')]), findings(80, [user('1', 'Ann')]), [], false);
    expect(whatToSay(same, speakOnAny, true)).toBeNull();
    expect(whatToSay(same, { ...speakOnAny, weeklyQuietLine: true }, false)).toBeNull();
    expect(whatToSay(same, { ...speakOnAny, weeklyQuietLine: true }, true)).toBe('quiet');
    expect(watchMessage('quiet', same, context)).toContain('All quiet: nothing changed this week (score 80/100).');
    expect(watchMessage('baseline', compareRuns(null, findings(80, [user('1', 'Ann')]), [], true), context)).toContain(
      'Watch started. Score 80/100, 1 open findings. From now on only what changes is said.',
    );
    expect(whatToSay(compareRuns(null, findings(80, []), [], true), speakOnAny, false)).toBe('baseline');
  });

  it('speaks on a score drop of at least N, or new findings of a severity or worse, when only those are asked', () => {
    const drop = compareRuns(findings(80, []), findings(74, [user('1', 'Ann')]), [], false);
    const quietUnlessDrop = { ...speakOnAny, anyChange: false };
    expect(whatToSay(drop, { ...quietUnlessDrop, scoreDrop: 5 }, false)).toBe('changes');
    expect(whatToSay(drop, { ...quietUnlessDrop, scoreDrop: 10 }, false)).toBeNull();
    expect(whatToSay(drop, { ...quietUnlessDrop, newFindingsAtLeast: 'warn' }, false)).toBe('changes');
    expect(whatToSay(drop, { ...quietUnlessDrop, newFindingsAtLeast: 'fail' }, false)).toBeNull();
  });

  it('says a removal once, with the items that named it, and a rename as a rename', () => {
    const lines: DriftLine[] = [
      { accountGroupName: 'Production', kind: 'test', name: 'DNS - example.com', change: 'removed', fields: [] },
      {
        accountGroupName: 'Production',
        kind: 'alert-rule',
        name: 'Default DNS rule',
        change: 'changed',
        fields: [
          {
            path: 'tests',
            before: '["dns-server: DNS - example.com","dns-server: Other"]',
            after: '["dns-server: Other"]',
          },
        ],
      },
      {
        accountGroupName: 'Production',
        kind: 'alert-rule',
        name: 'Latency',
        change: 'changed',
        fields: [{ path: 'minimumSources', before: '1', after: '2' }],
      },
      {
        accountGroupName: 'Production',
        kind: 'alert-rule',
        name: 'Payroll (renamed)',
        previousName: 'Payroll',
        change: 'renamed',
        fields: [{ path: 'ruleName', before: 'Payroll', after: 'Payroll (renamed)' }],
      },
    ];
    const folded = foldReferences(lines);
    expect(folded).toHaveLength(3);
    const message = watchMessage('changes', compareRuns(null, null, folded, false), context).replace(/\\(.)/g, '$1');
    expect(message).toContain(
      "- Production: test 'DNS - example.com' removed, taken out of alert rule 'Default DNS rule'",
    );
    expect(message).toContain("- Production: alert rule 'Latency' changed: minimumSources: 1 → 2");
    expect(message).toContain("- Production: alert rule 'Payroll' renamed to 'Payroll (renamed)'");
    expect(message).toContain('Drift: https://toolkit.example/home/tools/backup-restore');
  });
});

describe('waived findings: listed apart, in neither the score delta nor the message', () => {
  it('leaves a waived item out, passes a check left with none open, and counts what it waived', () => {
    const checks = findings(70, [user('1', 'Ann'), user('2', 'Bob')]).checks;
    const one = withoutWaived(checks, [{ checkId: 'inactive-users', itemKey: 'user:1' }]);
    expect(one.checks[0]?.items.map((item) => item.name)).toEqual(['Bob']);
    expect(one.checks[0]?.status).toBe('warn');
    expect(one.waived).toEqual(['inactive-users:user:1']);
    const all = withoutWaived(checks, [{ checkId: 'inactive-users', itemKey: null }]);
    expect(all.checks[0]).toMatchObject({ status: 'pass', items: [] });
    expect(all.waived).toEqual(['inactive-users:*']);
    // Nothing to say when the only change is a finding waived on both sides.
    const before = withoutWaived(findings(70, [user('1', 'Ann')]).checks, [
      { checkId: 'inactive-users', itemKey: 'user:1' },
    ]);
    const now = withoutWaived(findings(70, [user('1', 'Ann')]).checks, [
      { checkId: 'inactive-users', itemKey: 'user:1' },
    ]);
    const changes = compareRuns(
      { score: 100, checks: before.checks },
      { score: 100, checks: now.checks },
      [],
      false,
      now.waived,
    );
    expect(whatToSay(changes, speakOnAny, false)).toBeNull();
    // The waiver expired: the finding is back, as new.
    const back = compareRuns({ score: 100, checks: before.checks }, findings(70, [user('1', 'Ann')]), [], false);
    expect(back.newFindings.map((finding) => finding.name)).toEqual(['Ann']);
  });
});
