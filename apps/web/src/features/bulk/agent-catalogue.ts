import type { BulkAgentsResponse } from '@ce/contract';

export type GroupAgents = BulkAgentsResponse['groups'][number];

/** One agent name as the template picker offers it, with the account groups where it exists. */
export interface CatalogueAgent {
  agentName: string;
  location: string;
  agentType: string;
  aids: string[];
}

/**
 * The agents of every selected account group, by name: cloud agents carry the same name in every
 * group, enterprise agents appear only where they are installed. Cloud agents first, then by name.
 * Matching is by name, as the server's plan does.
 */
export function agentCatalogue(groups: readonly GroupAgents[]): CatalogueAgent[] {
  const byName = new Map<string, CatalogueAgent>();
  for (const group of groups) {
    for (const agent of group.agents) {
      const entry = byName.get(agent.agentName);
      if (entry) {
        if (!entry.aids.includes(group.aid)) entry.aids.push(group.aid);
      } else {
        byName.set(agent.agentName, {
          agentName: agent.agentName,
          location: agent.location,
          agentType: agent.agentType,
          aids: [group.aid],
        });
      }
    }
  }
  const rank = (agent: CatalogueAgent) => (agent.agentType.toLowerCase() === 'cloud' ? 0 : 1);
  return [...byName.values()].sort((a, b) => rank(a) - rank(b) || a.agentName.localeCompare(b.agentName));
}

/** Per account group: which of the chosen agents a template will use there, and which are missing. */
export interface GroupCoverage {
  aid: string;
  accountGroupName: string;
  used: string[];
  missing: string[];
}

export function coverage(agentNames: readonly string[], groups: readonly GroupAgents[]): GroupCoverage[] {
  return groups.map((group) => {
    const present = new Set(group.agents.map((agent) => agent.agentName));
    return {
      aid: group.aid,
      accountGroupName: group.accountGroupName,
      used: agentNames.filter((name) => present.has(name)),
      missing: agentNames.filter((name) => !present.has(name)),
    };
  });
}
