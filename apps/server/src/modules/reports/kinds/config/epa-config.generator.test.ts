import { describe, expect, it } from 'vitest';
import { describeSelector, matchesLabel, type EndpointGroup } from './epa-config.generator.js';

const windows = { id: 'a1', name: 'ana-laptop-1', computerName: 'WIN-1', platform: 'windows' };
const mac = { id: 'a2', name: 'ben-mbp-2', computerName: 'MAC-2', platform: 'mac' };
const helpDesk = { id: 'a3', name: 'desk-laptop-3', computerName: 'WIN-HELP', platform: 'windows' };

describe('endpoint labels and agent selection', () => {
  const either = {
    id: 'l2',
    name: 'Macs and the help desk',
    matchType: 'or',
    filters: [
      { key: 'platform', values: ['mac'], mode: 'in' },
      { key: 'hostname', values: ['WIN-HELP'], mode: 'in' },
    ],
  };
  it('matches any filter with or, every filter with and; hostname reads the computer name; not-in inverts', () => {
    expect([windows, mac, helpDesk].map((agent) => matchesLabel(agent, either))).toEqual([false, true, true]);
    const both = { ...either, matchType: 'and' };
    expect([windows, mac, helpDesk].map((agent) => matchesLabel(agent, both))).toEqual([false, false, false]);
    const notMac = {
      id: 'l3',
      name: 'Not macs',
      matchType: 'and',
      filters: [{ key: 'platform', values: ['mac'], mode: 'not-in' }],
    };
    expect([windows, mac].map((agent) => matchesLabel(agent, notMac))).toEqual([true, false]);
    expect(matchesLabel(windows, { id: 'l4', name: 'Empty', filters: [] })).toBe(false);
  });

  it('names the agents and labels a selector refers to', () => {
    const group: EndpointGroup = {
      accountGroupName: 'Prod',
      agents: [windows, mac],
      labels: [either],
      scheduled: [],
      dynamic: [],
    };
    expect(describeSelector({ agentSelectorType: 'all-agents', maxMachines: 25 }, group)).toBe(
      'All agents (at most 25 machines)',
    );
    expect(describeSelector({ agentSelectorType: 'specific-agents', agents: ['a2', 'gone'] }, group)).toBe(
      'Agents: ben-mbp-2, gone',
    );
    expect(
      describeSelector({ agentSelectorType: 'agent-labels', endpointAgentLabels: ['l2'], maxMachines: 5 }, group),
    ).toBe('Labels: Macs and the help desk (at most 5 machines)');
    expect(describeSelector(undefined, group)).toBe('not stated');
  });
});
