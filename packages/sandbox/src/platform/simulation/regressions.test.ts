import { describe, expect, it } from 'vitest';
import { generateWorld } from '../generator.js';
import { DAY } from '../world-tables.js';
import { applyWorldChange, WorldChangeError } from '../world-changes.js';
import { sourceOf } from './measurements.js';
import { MEASURED_GROUP } from './measured-cases.js';
import { PLANTED_FAILING_AGENTS, PLANTED_FAILING_FOR_MS } from './regressions.js';
import { roundsOf } from './rounds.js';

const NOW = Date.UTC(2026, 10, 11, 9, 30);

function plant(change: 'agent-offline' | 'test-failing') {
  const world = generateWorld({ now: NOW });
  const group = world.accountGroups.find((candidate) => candidate.accountGroupName === MEASURED_GROUP);
  if (!group) throw new Error('no measured group');
  let id = 9_000_000;
  const result = applyWorldChange(world, { change, organizationId: group.orgId, aid: group.aid }, NOW, () =>
    String(++id),
  );
  const rounds = (testId: string, from: number, to: number) => {
    const test = world.tests.find((candidate) => candidate.testId === testId);
    if (!test) throw new Error(`no test ${testId}`);
    return [
      ...roundsOf(sourceOf(world, test, world.seed, to, new Map(world.agents.map((a) => [a.agentId, a]))), from, to),
    ];
  };
  return { world, group, result, rounds };
}

describe('the measured regressions a test plants', () => {
  it('an enterprise agent of the group goes offline now: it makes no round from now', () => {
    const { world, group, result, rounds } = plant('agent-offline');
    const agent = world.agents.find((candidate) => candidate.agentId === result.id);
    expect(agent).toMatchObject({ agentType: 'enterprise', agentState: 'offline', lastSeen: '2026-11-11T09:30:00Z' });
    expect(agent?.aids).toContain(group.aid);
    const test = world.tests.find((candidate) => candidate.aid === group.aid && candidate.agentIds.includes(result.id));
    if (!test) throw new Error('the offline agent runs no test of the group');
    const mine = (from: number, to: number) => rounds(test.testId, from, to).filter((r) => r.agentId === result.id);
    expect(mine(NOW - DAY, NOW).length).toBeGreaterThan(0);
    expect(mine(NOW - DAY, NOW + DAY).filter((round) => round.at > NOW)).toEqual([]);
  });

  it('a healthy test fails from 3 of its agents since a day back', () => {
    const { world, group, result, rounds } = plant('test-failing');
    const test = world.tests.find((candidate) => candidate.testId === result.id);
    expect(test?.aid).toBe(group.aid);
    expect(result.what).toContain(`failing from ${PLANTED_FAILING_AGENTS} of its`);
    const week = rounds(result.id, NOW - 7 * DAY, NOW);
    const failed = week.filter((round) => round.failed);
    expect(new Set(failed.map((round) => round.agentId)).size).toBe(PLANTED_FAILING_AGENTS);
    expect(Math.min(...failed.map((round) => round.at))).toBeGreaterThanOrEqual(NOW - PLANTED_FAILING_FOR_MS);
    // Healthy before: no round of the week failed before the planted failure.
    expect(week.filter((round) => round.at < NOW - PLANTED_FAILING_FOR_MS).every((round) => !round.failed)).toBe(true);
  });

  it('says why when the group has nothing to plant it on', () => {
    const world = generateWorld({ now: NOW });
    const group = world.accountGroups.find((candidate) => candidate.accountGroupName === MEASURED_GROUP);
    if (!group) throw new Error('no measured group');
    for (const agent of world.agents) if (agent.agentType === 'enterprise') agent.agentState = 'offline';
    expect(() =>
      applyWorldChange(world, { change: 'agent-offline', organizationId: group.orgId, aid: group.aid }, NOW, () => '1'),
    ).toThrow(WorldChangeError);
  });
});
