import {
  dnsServerList,
  needsAgents,
  type BulkAccountGroup,
  type BulkAgent,
  type DuplicateGroup,
  type PlanCell,
  type TestTemplate,
} from '@ce/contract';
import type { TestCreateBody } from '@ce/platform-client';

export const toBulkAgent = (agent: {
  agentId: string;
  agentName: string;
  location?: string;
  countryId?: string;
  agentType?: string;
  enabled?: boolean;
}): BulkAgent => ({
  agentId: agent.agentId,
  agentName: agent.agentName,
  location: agent.location || 'N/A',
  countryId: agent.countryId || 'N/A',
  agentType: agent.agentType || 'Unknown',
  enabled: agent.enabled !== false,
});

/** The v7 create body for a template (spec section 3's payload, in the API's field names). */
export function createBody(template: TestTemplate, agents: { agentId: string }[]): TestCreateBody {
  const body: TestCreateBody = {
    testName: template.testName.trim(),
    alertsEnabled: template.alertsEnabled,
    description: template.description,
  };
  if (template.testType !== 'bgp') {
    body.interval = template.interval;
    body.agents = agents.map((agent) => ({ agentId: agent.agentId }));
  }
  switch (template.testType) {
    case 'http-server':
    case 'page-load':
      body.url = template.url.trim();
      break;
    case 'dns-server':
      body.domain = template.domain.trim();
      body.dnsServers = dnsServerList(template.dnsServers);
      break;
    case 'dns-trace':
      body.domain = template.domain.trim();
      break;
    case 'agent-to-server':
      body.server = template.domain.trim();
      body.port = template.port;
      break;
    case 'bgp':
      body.prefix = template.prefix.trim();
      break;
  }
  return body;
}

/** Test names as the plan compares them: trimmed, case folded (a near match is shown as a conflict too). */
export const nameKey = (name: string) => name.trim().toLowerCase();

/** `name`, or with the first suffix " (2)", " (3)", ... that no name in `taken` has. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  const base = name.trim();
  if (!taken.has(nameKey(base))) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base} (${suffix})`;
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}

export interface GroupInventory {
  group: BulkAccountGroup;
  tests: { testId: string; testName: string; type: string }[];
  agents: BulkAgent[];
  error: string | null;
}

/**
 * Template x account group: create; a conflict ('exists') because a test of that name is in the group
 * already (the platform allows a name once per group, whatever the type); or blocked because none of
 * the template's agents is in the group. Agents are matched by name.
 */
export function planCells(templates: TestTemplate[], groups: GroupInventory[]): PlanCell[] {
  const cells: PlanCell[] = [];
  templates.forEach((template, templateIndex) => {
    for (const { group, tests, agents, error } of groups) {
      const existing = new Map(tests.map((test) => [nameKey(test.testName), test.testId]));
      const byName = new Map(agents.map((agent) => [agent.agentName, agent]));
      const chosen = needsAgents(template.testType) ? template.agentNames : [];
      const found = chosen.flatMap((name) => {
        const agent = byName.get(name);
        return agent ? [{ agentId: agent.agentId, agentName: agent.agentName }] : [];
      });
      const missingAgents = chosen.filter((name) => !byName.has(name));
      const existingTestId = existing.get(nameKey(template.testName)) ?? null;
      const base = {
        templateIndex,
        aid: group.aid,
        accountGroupName: group.accountGroupName,
        testName: template.testName.trim(),
        existingTestId,
        agents: found,
        missingAgents,
      };
      if (error) cells.push({ ...base, action: 'blocked', reason: error });
      else if (existingTestId)
        cells.push({ ...base, action: 'exists', reason: 'A test with this name exists in this account group' });
      else if (chosen.length > 0 && found.length === 0)
        cells.push({ ...base, action: 'blocked', reason: 'None of the chosen agents is in this account group' });
      else cells.push({ ...base, action: 'create', reason: null });
    }
  });
  return cells;
}

/**
 * Enterprise agents sharing an IP address and a location, grouped (the same agent seen from
 * several account groups counts once).
 */
export function findDuplicates(
  scanned: {
    group: BulkAccountGroup;
    agents: {
      agentId: string;
      agentName: string;
      agentType: string;
      location?: string;
      ipAddresses?: string[];
      lastSeen?: string;
    }[];
  }[],
): { scannedAgents: number; groups: DuplicateGroup[] } {
  const seen = new Set<string>();
  const byKey = new Map<string, DuplicateGroup['agents']>();
  for (const { group, agents } of scanned) {
    for (const agent of agents) {
      if (agent.agentType === 'cloud' || seen.has(agent.agentId)) continue;
      seen.add(agent.agentId);
      const ipAddress = agent.ipAddresses?.[0] ?? '';
      const location = agent.location || 'N/A';
      if (!ipAddress) continue;
      const duplicateKey = `${ipAddress} @ ${location}`;
      const list = byKey.get(duplicateKey) ?? [];
      list.push({
        agentId: agent.agentId,
        agentName: agent.agentName,
        accountGroupName: group.accountGroupName,
        accountGroupId: group.aid,
        ipAddress,
        location,
        isDuplicate: false,
        duplicateReason: '',
        lastActivity: agent.lastSeen ?? null,
      });
      byKey.set(duplicateKey, list);
    }
  }
  const groups: DuplicateGroup[] = [];
  for (const [duplicateKey, agents] of byKey) {
    if (agents.length < 2) continue;
    const reason = `${agents.length} agents share IP address ${agents[0]?.ipAddress} in ${agents[0]?.location}`;
    groups.push({
      key: duplicateKey,
      reason,
      agents: agents.map((agent) => ({ ...agent, isDuplicate: true, duplicateReason: 'Same IP address and location' })),
    });
  }
  return { scannedAgents: seen.size, groups };
}
