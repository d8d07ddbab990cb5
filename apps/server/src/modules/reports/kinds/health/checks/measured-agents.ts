import { HEALTH_CHECK_WEIGHTS, type EvidenceItem, type HealthCheck, type HealthStatus } from '@ce/contract';
import { ageInDays, day, finished, percent, plural, type CheckSpec, type HealthInput, unknownCheck } from './input.js';
import type { AgentNotificationRule, MeasuredAgent } from './measured-input.js';
import { MEASURED_LIMITS as L } from './measured-limits.js';

const enterprise = (agent: MeasuredAgent) => agent.agentType !== 'cloud';

/** Enterprise agents once each (an agent shared by several account groups is listed by each). */
export function enterpriseAgents(agents: MeasuredAgent[]): MeasuredAgent[] {
  const byId = new Map<string, MeasuredAgent>();
  for (const agent of agents.filter(enterprise)) {
    const known = byId.get(agent.agentId);
    byId.set(agent.agentId, known ? { ...known, accountGroup: `${known.accountGroup}, ${agent.accountGroup}` } : agent);
  }
  return [...byId.values()];
}

const agentItem = (agent: MeasuredAgent, detail: string): EvidenceItem => ({
  type: 'agent',
  id: agent.agentId,
  name: agent.agentName,
  detail,
  accountGroup: agent.accountGroup,
});

export function agentsOffline(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'agents-offline',
    title: 'Enterprise agents offline',
    threshold: 'offline now',
    definition:
      'Enterprise agents the platform says are offline (/agents: agentState), with when they were last seen (lastSeen): an offline agent makes no round of any of its tests.',
    remediation:
      'Bring the agent back (its host, its network, its service), or remove it and move its tests to agents that run.',
  };
  const agents = input.measured?.agents;
  if (!agents) return unknownCheck(spec, 'The agents were not read.');
  if (!agents.ok) return unknownCheck(spec, agents.reason);
  const items = enterpriseAgents(agents.value)
    .filter((agent) => agent.agentState === 'offline')
    .map((agent) => {
      const days = ageInDays(agent.lastSeen, input.now);
      return agentItem(
        agent,
        agent.lastSeen && days !== undefined
          ? `offline since ${day(agent.lastSeen)} (${plural(Math.floor(days), 'day')}); ${plural(agent.testIds.length, 'test')} on it`
          : `offline, never seen; ${plural(agent.testIds.length, 'test')} on it`,
      );
    });
  return finished(spec, items, 'warn');
}

export function agentsErroring(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'agents-erroring',
    title: 'Enterprise agents erroring or outdated',
    threshold: 'any error the platform reports',
    definition:
      'Enterprise agents for which the platform reports a problem (/agents: errorDetails, such as an outdated agent version or a clock offset).',
    remediation: 'Update the agent (an outdated version stops receiving fixes) or fix what the error names.',
  };
  const agents = input.measured?.agents;
  if (!agents) return unknownCheck(spec, 'The agents were not read.');
  if (!agents.ok) return unknownCheck(spec, agents.reason);
  const items = enterpriseAgents(agents.value)
    .filter((agent) => agent.errors.length > 0)
    .map((agent) => agentItem(agent, agent.errors.join('; ')));
  return finished(spec, items, 'warn');
}

/** An agent notification rule watches agents going offline when its expression is on their last contact. */
export const watchesOffline = (expression: string) => /last(Contact|Seen)/i.test(expression);

/**
 * Who hears of each group's agents going offline: the agents its rules on their last contact are on (a rule whose
 * agents were not read covers its whole group).
 */
function offlineCoverage(rules: AgentNotificationRule[]): { groups: Set<string>; agents: Set<string> } {
  const groups = new Set<string>();
  const agents = new Set<string>();
  for (const rule of rules.filter((candidate) => watchesOffline(candidate.expression))) {
    if (!rule.agentIds) groups.add(rule.accountGroup);
    else for (const agentId of rule.agentIds) agents.add(`${rule.accountGroup}|${agentId}`);
  }
  return { groups, agents };
}

export function agentOfflineNotifications(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'agent-offline-notifications',
    title: 'Enterprise agents nobody hears of going offline',
    threshold: 'on no agent-offline notification rule',
    definition:
      "Enterprise agents no agent notification rule on their last contact is on (/agents/notification-rules: an expression on lastContact; each such rule's detail, /agents/notification-rules/{id}, names the agents it is on): such an agent can stop and nobody hears of it.",
    remediation:
      'Put the agent on an agent notification rule such as ((lastContact >= 30 min)) with the people who look after the agents, or add one to the account group.',
  };
  const measured = input.measured;
  if (!measured) return unknownCheck(spec, 'The agents were not read.');
  if (!measured.agents.ok) return unknownCheck(spec, measured.agents.reason);
  if (!measured.agentNotificationRules.ok) return unknownCheck(spec, measured.agentNotificationRules.reason);
  const rules = measured.agentNotificationRules.value;
  const covered = offlineCoverage(rules);
  const withRule = new Set(rules.filter((rule) => watchesOffline(rule.expression)).map((rule) => rule.accountGroup));
  const uncovered = measured.agents.value.filter(
    (agent) => !covered.groups.has(agent.accountGroup) && !covered.agents.has(`${agent.accountGroup}|${agent.agentId}`),
  );
  // An agent of several groups is listed once, with the groups that leave it uncovered.
  const items = enterpriseAgents(uncovered).map((agent) =>
    agentItem(
      agent,
      withRule.has(agent.accountGroup)
        ? "on none of its account group's agent notification rules on their last contact"
        : 'its account group has no agent notification rule on their last contact',
    ),
  );
  return finished(spec, items, 'warn');
}

/** "60 on 1.204.0, 50 on 1.201.1": the endpoint agents of the groups read, by version. */
function versionsWords(versions: { version: string; agents: number }[] | undefined): string {
  if (!versions?.length) return '';
  return `; versions in the account groups read: ${versions.map((entry) => `${entry.agents.toLocaleString('en-US')} on ${entry.version}`).join(', ')}`;
}

export function endpointAgentsLicensed(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'endpoint-agents-licensed',
    title: 'Endpoint agents in use against licensed',
    threshold: `below ${percent(L.endpointInUseShare)} of the licences, or above them`,
    definition: `Endpoint agents in use this billing period against the endpoint agents the plan includes (/usage: endpointAgentsUsed, quota.endpointAgentsIncluded): below ${percent(L.endpointInUseShare)} warns (licences paid for and not deployed), above all of them fails.`,
    remediation:
      'Deploy the licensed endpoint agents to the people they were bought for, or lower the licence count at renewal; above the licences, plan more.',
  };
  const endpoints = input.measured?.endpoints;
  if (!endpoints) return unknownCheck(spec, 'The usage was not read.');
  if (!endpoints.ok) return unknownCheck(spec, endpoints.reason);
  const { inUse, licensed } = endpoints.value;
  if (!licensed) return unknownCheck(spec, 'The plan states no licensed endpoint agents.');
  const used = inUse / licensed;
  const status: HealthStatus = used > 1 ? 'fail' : used < L.endpointInUseShare ? 'warn' : 'pass';
  const item: EvidenceItem = {
    type: 'organization',
    id: 'endpoint-agents',
    name: 'Endpoint agents',
    detail: `${inUse.toLocaleString('en-US')} in use of ${licensed.toLocaleString('en-US')} licensed (${percent(used)})${versionsWords(endpoints.value.versions)}`,
  };
  // Passing, the figures and versions are still said (the item is evidence, not a finding).
  return { ...spec, status, weight: HEALTH_CHECK_WEIGHTS[spec.id], items: [item] };
}
