import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateWorld } from './generator.js';

describe('the sandbox world', () => {
  it('is the same for the same seed, and different for another', () => {
    const now = Date.UTC(2026, 10, 1);
    expect(generateWorld({ seed: 'a', now })).toEqual(generateWorld({ seed: 'a', now }));
    expect(generateWorld({ seed: 'b', now }).tests.map((test) => test.testName)).not.toEqual(
      generateWorld({ seed: 'a', now }).tests.map((test) => test.testName),
    );
    expect(generateWorld({ seed: 'a', now }).tokens).not.toEqual(generateWorld({ seed: 'b', now }).tokens);
  });

  it('has what the demo needs: two organizations, about 12 groups, every test type, duplicates, a year of logins', () => {
    const world = generateWorld();
    expect(world.organizations).toHaveLength(2);
    expect(world.accountGroups).toHaveLength(12);
    expect(new Set(world.tests.map((test) => test.type))).toEqual(
      new Set(['http-server', 'page-load', 'dns-server', 'dns-trace', 'agent-to-server', 'bgp']),
    );
    expect(new Set(world.agents.map((agent) => agent.agentType))).toEqual(new Set(['cloud', 'enterprise']));
    const logins = world.users.flatMap((user) => (user.lastLogin ? [Date.parse(user.lastLogin)] : []));
    expect((Math.max(...logins) - Math.min(...logins)) / 86_400_000).toBeGreaterThan(300);
    const keys = world.agents
      .filter((agent) => agent.agentType === 'enterprise')
      .map((agent) => `${agent.ipAddresses[0]}|${agent.location}`);
    expect(new Set(keys).size).toBeLessThan(keys.length);
    expect(world.tokens.map((token) => token.kind).sort()).toEqual(['org-admin', 'org-admin', 'read-only', 'revoked']);
  });

  it('has the sizes of the large world', () => {
    const world = generateWorld({ size: 'large' });
    expect(world.accountGroups).toHaveLength(100);
    expect(world.tests).toHaveLength(10_000);
    expect(world.alertRules).toHaveLength(3_000);
    expect(world.users).toHaveLength(1_000);
    expect(world.agents.filter((agent) => agent.agentType === 'enterprise')).toHaveLength(500);
    expect(world.dashboards).toHaveLength(200);
  });

  it('lists in the README the tokens of the default seed', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../../../README.md'), 'utf8');
    for (const token of generateWorld().tokens) expect(readme).toContain(token.token);
  });
});
