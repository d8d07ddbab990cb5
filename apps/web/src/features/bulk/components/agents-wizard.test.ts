import { describe, expect, it } from 'vitest';
import type { DuplicateAgent } from '@ce/contract';
import { oldestAgents } from './agents-wizard';

const agent = (agentId: string, lastActivity: string | null): DuplicateAgent => ({
  agentId,
  agentName: `Agent ${agentId}`,
  accountGroupName: 'Production',
  accountGroupId: '1',
  ipAddress: '10.0.0.5',
  location: 'Lisbon',
  isDuplicate: true,
  duplicateReason: 'Same IP address and location',
  lastActivity,
});

describe('Select Oldest', () => {
  it('marks every agent of a duplicate group but the most recently active one', () => {
    const groups = [
      {
        key: '10.0.0.5 @ Lisbon',
        reason: '3 agents share IP address 10.0.0.5 in Lisbon',
        agents: [agent('a', '2026-01-01T00:00:00Z'), agent('b', '2026-11-20T08:00:00Z'), agent('c', null)],
      },
      {
        key: '10.0.0.9 @ Porto',
        reason: '2 agents share IP address 10.0.0.9 in Porto',
        agents: [agent('d', null), agent('e', null)],
      },
    ];
    expect([...oldestAgents(groups)].sort()).toEqual(['a', 'c', 'e']);
  });
});
