import { z } from 'zod';
import { apiTestType, PLATFORM_API_TEST_TYPES } from '@ce/platform-client';
import {
  eachDetail,
  isJson,
  namesField,
  objects,
  split,
  strings,
  writable,
  type BackupKindDescriptor,
} from './kind.js';

/** How a test is known across groups: its type and name. */
export const testKey = (test: { type: string; testName: string }) => `${test.type}: ${test.testName}`;

/** A test's body as a write takes it: its name, and its other fields as they were read (a DNS server test's servers as objects). */
const testBody = z.looseObject({ testName: z.string() });

/** A test's type, from its key. */
const typeOf = (key: string) => apiTestType(key.split(':')[0] ?? '');

/**
 * Tests (all types of the group): agents by name in `config`; a test's alert rules and tags are links its
 * rules and tags hold (a rule names its tests, a tag its assignments), kept there once, so deleting a rule is
 * one change, not one per test it covered. The enterprise agents they use are emitted as references.
 */
export const test: BackupKindDescriptor<'test'> = {
  kind: 'test',
  folder: 'tests',
  serverFields: ['testId'],
  configShape: z.looseObject({ agents: namesField }),
  // The type names the URL its writes go to, so only a type the platform serves.
  keyProblem(key) {
    const type = key.split(':')[0] ?? '';
    return PLATFORM_API_TEST_TYPES.some((known) => known === type) && key.startsWith(`${type}: `)
      ? null
      : `The backup lists a test of type "${type}", which is not a test type the platform knows.`;
  },
  async read({ session, aid, emit, testKeys }) {
    const tests = await session.tests.list(aid);
    for (const listed of tests) testKeys.set(listed.testId, testKey(listed));
    const agents = new Map<string, { agentName: string; agentType: string }>();
    await eachDetail(tests, async (summary) => {
      const detail = await session.tests.get(apiTestType(summary.type), summary.testId, {
        aid,
        expand: ['agent', 'alert-rule', 'tag'],
      });
      const { agents: testAgents, alertRules, tags, ...rest } = detail;
      const parts = split(rest, test.serverFields);
      for (const agent of objects(testAgents))
        if (agent.agentType && agent.agentType !== 'cloud')
          agents.set(String(agent.agentId), { agentName: String(agent.agentName), agentType: String(agent.agentType) });
      parts.config.agents = objects(testAgents)
        .map((agent) => String(agent.agentName ?? ''))
        .sort();
      parts.server.tags = tags ?? [];
      parts.server.agentIds = Object.fromEntries(objects(testAgents).map((agent) => [agent.agentName, agent.agentId]));
      parts.server.alertRuleIds = Object.fromEntries(objects(alertRules).map((rule) => [rule.ruleName, rule.ruleId]));
      emit({ kind: 'test', key: testKey(detail), name: detail.testName, ...parts });
    });
    // The enterprise agents the tests run on, by name: kept to name what the tests use (never restored).
    for (const [agentId, agent] of [...agents].sort(([, a], [, b]) => a.agentName.localeCompare(b.agentName)))
      emit({
        kind: 'reference',
        key: `agent: ${agent.agentName}`,
        name: agent.agentName,
        config: agent,
        server: { agentId },
        masked: [],
      });
  },
  restore: {
    phase: 0,
    /** A type the target's plan refuses, or an agent it lacks, keeps the test out; its agents are remapped by name. */
    plan({ item, config, resolved }, { target }) {
      const type = typeOf(item.key);
      if (target.refusedTestTypes?.has(type))
        return `The plan of ${target.accountGroupName} does not include ${type} tests`;
      const agents = strings(config.agents);
      const missing = agents.filter((name) => !target.agents.has(name));
      if (missing.length) return `No agent ${missing.join(', ')} in ${target.accountGroupName}`;
      const agentIds = isJson(item.server.agentIds) ? item.server.agentIds : {};
      for (const name of agents)
        resolved.push({ kind: 'agent', name, from: String(agentIds[name] ?? ''), to: target.agents.get(name) ?? '' });
      return null;
    },
    /** Agents by the target's ids; alert rules left to the rules that name the test. */
    write({ config }, target) {
      const { type: _type, agents, ...body } = config;
      return {
        body: {
          ...body,
          agents: strings(agents).map((name) => ({ agentId: target.agents.get(name) ?? name })),
          alertRules: [],
        },
      };
    },
    nameOf: (body) => String(body.testName),
    undoesUpdate: true,
    platform: {
      create: async (session, { key }, body, aid) =>
        (await session.tests.create(typeOf(key), writable(testBody, body), aid)).testId,
      update: (session, { key }, id, body, aid) => session.tests.update(typeOf(key), id, writable(testBody, body), aid),
      delete: (session, { key }, id, aid) => session.tests.delete(typeOf(key), id, aid),
      list: async (session, { key }, aid) =>
        (await session.tests.listByType(typeOf(key), aid)).map((found) => ({ id: found.testId, name: found.testName })),
    },
  },
};
