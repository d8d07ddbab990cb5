import { describe, expect, it } from 'vitest';
import { generateWorld } from '../generator.js';
import { DAY } from '../world-tables.js';
import type { World } from '../world.js';
import { billingPeriod, derivedAlerts, sourceOf, unitsOfTests } from './measurements.js';
import { MEASURED_GROUP } from './measured-cases.js';
import { roundsOf } from './rounds.js';

// A Wednesday: "since Tuesday" is yesterday 09:00 UTC.
const NOW = Date.UTC(2026, 10, 11);
const world = generateWorld({ now: NOW });
const group = world.accountGroups.find((candidate) => candidate.accountGroupName === MEASURED_GROUP);
const agentsById = new Map(world.agents.map((agent) => [agent.agentId, agent]));
const testNamed = (w: World, name: string) => {
  const found = w.tests.find((test) => test.aid === group?.aid && test.testName === name);
  if (!found) throw new Error(`no test ${name}`);
  return found;
};
const rounds = (w: World, name: string, from: number, to: number) => [
  ...roundsOf(sourceOf(w, testNamed(w, name), w.seed, NOW, new Map(w.agents.map((a) => [a.agentId, a]))), from, to),
];

describe('the simulated rounds', () => {
  it('are the same for the same seed, and made on request, not stored', () => {
    const again = generateWorld({ now: NOW });
    expect(rounds(again, 'Payroll HTTP', NOW - DAY, NOW)).toEqual(rounds(world, 'Payroll HTTP', NOW - DAY, NOW));
    expect(Object.keys(world)).not.toContain('rounds');
    const other = generateWorld({ now: NOW, seed: 'other' });
    expect(rounds(other, 'Intranet home', NOW - DAY, NOW).map((round) => round.draw)).not.toEqual(
      rounds(world, 'Intranet home', NOW - DAY, NOW).map((round) => round.draw),
    );
  });

  it('come at the test interval from every agent, with the round in progress at the start of a window', () => {
    const test = testNamed(world, 'Payroll HTTP');
    const from = NOW - 3_600_000 + 60_000;
    const made = rounds(world, 'Payroll HTTP', from, NOW);
    const starts = [...new Set(made.map((round) => round.at))];
    expect(starts[0]).toBe(NOW - 3_600_000);
    expect(starts[0]).toBeLessThan(from);
    expect(starts).toHaveLength(13);
    expect(made).toHaveLength(13 * 5);
    expect(new Set(starts.map((at, index) => at - (starts[index - 1] ?? at - test.interval * 1000)))).toEqual(
      new Set([test.interval * 1000]),
    );
  });

  it('has none from an agent offline since 9 days, until it was last seen', () => {
    const kiosk = rounds(world, 'Kiosk portal', NOW - 10 * DAY, NOW);
    expect(kiosk.length).toBeGreaterThan(0);
    expect(Math.max(...kiosk.map((round) => round.at))).toBeLessThanOrEqual(NOW - 9 * DAY);
    expect(rounds(world, 'Kiosk portal', NOW - 7 * DAY, NOW)).toEqual([]);
  });

  it('fail as the measured cases say, on both sides', () => {
    const since = Date.UTC(2026, 10, 10, 9);
    const payroll = rounds(world, 'Payroll HTTP', NOW - 7 * DAY, NOW);
    const failing = new Set(payroll.filter((round) => round.failed).map((round) => round.agentId));
    expect(failing.size).toBe(3);
    expect(Math.min(...payroll.filter((round) => round.failed).map((round) => round.at))).toBe(since);
    expect(payroll.filter((round) => round.at < since).every((round) => !round.failed)).toBe(true);
    expect(rounds(world, 'Branch DNS', NOW - 7 * DAY, NOW).every((round) => round.failed)).toBe(true);
    const warehouse = rounds(world, 'Warehouse network', NOW - DAY, NOW);
    const agentIds = [...new Set(warehouse.map((round) => round.agentId))];
    const alwaysFailing = agentIds.map((agentId) =>
      warehouse.filter((round) => round.agentId === agentId).every((round) => round.failed),
    );
    expect(alwaysFailing).toEqual([false, false, true]);
    expect(rounds(world, 'Intranet home', NOW - DAY, NOW).every((round) => !round.failed)).toBe(true);
  });
});

describe('alerts from the rules over the rounds', () => {
  const alerts = derivedAlerts(world, group?.aid ?? '', world.seed, NOW);
  const ofRule = (name: string) => {
    const rule = world.alertRules.find((candidate) => candidate.aid === group?.aid && candidate.ruleName === name);
    return alerts.filter((alert) => alert.alertRuleId === rule?.ruleId);
  };

  it('fire 400 times a week for a flapping rule, once for a rule needing 3 sources, never for a healthy one', () => {
    const week = ofRule('Checkout errors').filter((alert) => Date.parse(alert.startDate) >= NOW - 7 * DAY);
    expect(week.length).toBeGreaterThanOrEqual(399);
    expect(week.length).toBeLessThanOrEqual(401);
    expect(week.every((alert) => alert.alertState === 'clear')).toBe(true);
    expect(ofRule('Payroll HTTP availability').map((alert) => [alert.alertState, alert.startDate])).toEqual([
      ['trigger', '2026-11-10T09:00:00Z'],
    ]);
    expect(ofRule('Intranet errors')).toEqual([]);
  });

  it('are in the world up to its moment, as the seeded ones are', () => {
    const stored = world.alerts.filter((alert) => alert.derived).map((alert) => alert.id);
    expect(stored.sort()).toEqual(alerts.map((alert) => alert.id).sort());
  });
});

describe('units', () => {
  it('accrue by type, interval and agents, and the first organization is on course for 112% of its plan', () => {
    const [start, end] = billingPeriod(NOW);
    const [first, second] = world.organizations;
    const aidsOf = (orgId: string | undefined) =>
      new Set(world.accountGroups.filter((candidate) => candidate.orgId === orgId).map((candidate) => candidate.aid));
    const units = unitsOfTests(world, aidsOf(first?.orgId), start, end, NOW);
    const projected = units.reduce((sum, item) => sum + item.cloudUnitsProjected, 0);
    expect(projected / (first?.billing?.cloudUnitsIncluded ?? 1)).toBeCloseTo(1.12, 3);
    expect([first?.billing?.usagePricing, second?.billing?.usagePricing]).toEqual([true, false]);
    const checkout = units.find((item) => item.test.testName === 'Checkout web' && item.test.aid === group?.aid);
    // Two cloud agents, every minute, 5 units a round, from the 1st of November to the 11th 00:00 (both included).
    expect(checkout?.cloudUnitsUsed).toBe(2 * (10 * 1440 + 1) * 5);
    const kiosk = units.find((item) => item.test.testName === 'Kiosk portal');
    expect(kiosk?.enterpriseUnitsUsed).toBe(kiosk?.enterpriseUnitsProjected);
    expect(agentsById.size).toBeGreaterThan(0);
  });
});
