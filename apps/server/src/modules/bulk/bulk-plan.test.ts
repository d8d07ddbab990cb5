import { describe, expect, it } from 'vitest';
import { newTestTemplate, type TestTemplate } from '@ce/contract';
import { PlatformError } from '@ce/platform-client';
import { createBody, findDuplicates, planCells, uniqueName, type GroupInventory } from './bulk-plan.js';
import { platformFailure } from '../../core/change-sets/handlers.js';

const template = (changes: Partial<TestTemplate>): TestTemplate => ({ ...newTestTemplate(), ...changes });
const agent = (agentId: string, agentName: string) => ({
  agentId,
  agentName,
  location: 'N/A',
  countryId: 'N/A',
  agentType: 'cloud',
  enabled: true,
});
const group = (aid: string, changes: Partial<GroupInventory> = {}): GroupInventory => ({
  group: { aid, accountGroupName: `Group ${aid}` },
  tests: [],
  agents: [agent('1', 'Tokyo'), agent('2', 'Paris')],
  error: null,
  ...changes,
});

describe('planCells', () => {
  const shop = template({ testName: ' Shop ', url: 'https://shop.example.com', agentNames: ['Tokyo', 'Lima'] });

  it('creates where nothing is in the way, with the agents found by name and the missing ones named', () => {
    const [cell] = planCells([shop], [group('10')]);
    expect(cell).toEqual({
      templateIndex: 0,
      aid: '10',
      accountGroupName: 'Group 10',
      testName: 'Shop',
      action: 'create',
      existingTestId: null,
      agents: [{ agentId: '1', agentName: 'Tokyo' }],
      missingAgents: ['Lima'],
      reason: null,
    });
  });

  it('shows a test of the same name (any case, any type: the platform takes a name once per group) as a conflict', () => {
    const existing = group('10', { tests: [{ testId: '77', testName: 'shop', type: 'http-server' }] });
    expect(planCells([shop], [existing])[0]).toMatchObject({
      action: 'exists',
      existingTestId: '77',
      reason: 'A test with this name exists in this account group',
    });
    const otherType = group('10', { tests: [{ testId: '78', testName: 'Shop', type: 'page-load' }] });
    expect(planCells([shop], [otherType])[0]).toMatchObject({ action: 'exists', existingTestId: '78' });
    const otherName = group('10', { tests: [{ testId: '79', testName: 'Shop front', type: 'http-server' }] });
    expect(planCells([shop], [otherName])[0]?.action).toBe('create');
  });

  it('renames a conflict with the first free suffix', () => {
    expect(uniqueName(' Shop ', new Set(['shop']))).toBe('Shop (2)');
    expect(uniqueName('Shop', new Set(['shop', 'shop (2)', 'shop (3)']))).toBe('Shop (4)');
    expect(uniqueName('Shop', new Set(['other']))).toBe('Shop');
  });

  it('blocks a group where none of the chosen agents is, or that could not be read', () => {
    expect(planCells([template({ agentNames: ['Lima'] })], [group('10')])[0]).toMatchObject({
      action: 'blocked',
      reason: 'None of the chosen agents is in this account group',
    });
    expect(planCells([shop], [group('10', { error: 'Forbidden' })])[0]).toMatchObject({
      action: 'blocked',
      reason: 'Forbidden',
    });
  });

  it('needs no agent for BGP, and makes one cell per template and group, templates first', () => {
    const bgp = template({ testType: 'bgp', testName: 'Prefix', prefix: '203.0.113.0/24', agentNames: ['Nowhere'] });
    const cells = planCells([shop, bgp], [group('10'), group('20')]);
    expect(cells.map((cell) => `${cell.templateIndex}:${cell.aid}:${cell.action}`)).toEqual([
      '0:10:create',
      '0:20:create',
      '1:10:create',
      '1:20:create',
    ]);
    expect(cells[2]?.agents).toEqual([]);
  });
});

describe('createBody', () => {
  const agents = [{ agentId: '1' }, { agentId: '2' }];

  it('sends the common fields and each type its own, trimmed', () => {
    expect(createBody(template({ testName: ' Web ', url: ' https://a.example ', interval: 600 }), agents)).toEqual({
      testName: 'Web',
      alertsEnabled: true,
      description: '',
      interval: 600,
      agents,
      url: 'https://a.example',
    });
    expect(
      createBody(template({ testType: 'agent-to-server', domain: 'db.example.com', port: 5432 }), agents),
    ).toMatchObject({ server: 'db.example.com', port: 5432 });
    expect(
      createBody(template({ testType: 'dns-server', domain: 'example.com', dnsServers: '8.8.8.8, 1.1.1.1' }), agents),
    ).toMatchObject({ domain: 'example.com', dnsServers: ['8.8.8.8', '1.1.1.1'] });
  });

  it('gives BGP its prefix and neither interval nor agents', () => {
    const body = createBody(template({ testType: 'bgp', prefix: '203.0.113.0/24' }), agents);
    expect(body).toEqual({ testName: '', alertsEnabled: true, description: '', prefix: '203.0.113.0/24' });
  });
});

describe('findDuplicates', () => {
  const enterprise = (agentId: string, ip: string, location: string, lastSeen: string) => ({
    agentId,
    agentName: `Agent ${agentId}`,
    agentType: 'enterprise',
    location,
    ipAddresses: [ip],
    lastSeen,
  });

  it('groups enterprise agents sharing an address and a location, counting an agent seen twice once', () => {
    const a = enterprise('1', '10.0.0.5', 'Paris', '2026-11-01T00:00:00Z');
    const b = enterprise('2', '10.0.0.5', 'Paris', '2026-11-20T00:00:00Z');
    const elsewhere = enterprise('3', '10.0.0.5', 'Lyon', '2026-11-20T00:00:00Z');
    const cloud = { ...enterprise('4', '10.0.0.5', 'Paris', ''), agentType: 'cloud' };
    const result = findDuplicates([
      { group: { aid: '10', accountGroupName: 'Prod' }, agents: [a, b, elsewhere, cloud] },
      { group: { aid: '20', accountGroupName: 'Lab' }, agents: [a] },
    ]);
    expect(result.scannedAgents).toBe(3);
    expect(result.groups).toHaveLength(1);
    expect(result.groups[0]).toMatchObject({
      key: '10.0.0.5 @ Paris',
      reason: '2 agents share IP address 10.0.0.5 in Paris',
    });
    expect(result.groups[0]?.agents.map((item) => [item.agentId, item.accountGroupName, item.isDuplicate])).toEqual([
      ['1', 'Prod', true],
      ['2', 'Prod', true],
    ]);
  });
});

describe('platformFailure', () => {
  it("says what went wrong in the platform's own words when it gave some", () => {
    const fields = new PlatformError(400, 'Bad request', [{ field: 'url', message: 'url must be a valid URL' }]);
    expect(platformFailure(fields, 'Failed')).toBe('url must be a valid URL');
    expect(platformFailure(new PlatformError(403, 'Forbidden', [], 'No access to 10'), 'Failed')).toBe(
      'No access to 10',
    );
    expect(platformFailure(new Error('boom'), 'Failed to create test')).toBe('Failed to create test');
  });
});
