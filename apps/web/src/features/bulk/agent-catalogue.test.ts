import { describe, expect, it } from 'vitest';
import { agentCatalogue, coverage, type GroupAgents } from './agent-catalogue';

const agent = (agentName: string, agentType: string, enabled = true) => ({
  agentId: `${agentName}-id`,
  agentName,
  location: 'Somewhere',
  countryId: 'N/A',
  agentType,
  enabled,
});
const groups: GroupAgents[] = [
  {
    aid: '1',
    accountGroupName: 'Production',
    error: null,
    agents: [
      agent('Tokyo, Japan', 'cloud'),
      agent('Branch office', 'enterprise'),
      agent('Old box', 'enterprise', false),
    ],
  },
  { aid: '2', accountGroupName: 'Staging', error: null, agents: [agent('Tokyo, Japan', 'cloud')] },
];

describe('agent catalogue', () => {
  it('offers each agent name once with the groups it exists in, cloud agents first', () => {
    expect(agentCatalogue(groups).map((entry) => [entry.agentName, entry.aids])).toEqual([
      ['Tokyo, Japan', ['1', '2']],
      ['Branch office', ['1']],
      ['Old box', ['1']],
    ]);
  });

  it('tells per group which chosen agents are used and which are missing', () => {
    expect(coverage(['Tokyo, Japan', 'Branch office'], groups)).toEqual([
      { aid: '1', accountGroupName: 'Production', used: ['Tokyo, Japan', 'Branch office'], missing: [] },
      { aid: '2', accountGroupName: 'Staging', used: ['Tokyo, Japan'], missing: ['Branch office'] },
    ]);
  });
});
