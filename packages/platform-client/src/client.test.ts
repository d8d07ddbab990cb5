import { describe, expect, it } from 'vitest';
import { PlatformClient, writableTestBody } from './client.js';

describe('writableTestBody', () => {
  it('turns a test as read back into what a PUT takes: ids for agents and rules, no read-only fields', () => {
    const body = writableTestBody({
      testId: '42',
      testName: 'Shop',
      type: 'http-server',
      interval: 300,
      enabled: true,
      alertsEnabled: false,
      createdDate: '2026-01-01T00:00:00Z',
      createdBy: 'someone@example.com',
      url: 'https://shop.example.com',
      agents: [{ agentId: '1', agentName: 'Tokyo' }, { agentId: '2' }],
      alertRules: [{ ruleId: '7', ruleName: 'Default' }],
    });
    expect(body).toEqual({
      testName: 'Shop',
      interval: 300,
      enabled: true,
      alertsEnabled: false,
      description: '',
      agents: [{ agentId: '1' }, { agentId: '2' }],
      alertRules: ['7'],
      url: 'https://shop.example.com',
    });
  });

  it('sends DNS servers back as names, as the API takes them', () => {
    const body = writableTestBody({
      testId: '43',
      testName: 'DNS',
      type: 'dns-server',
      domain: 'example.com',
      dnsServers: [{ serverId: '1', serverName: '8.8.8.8' }, '1.1.1.1'],
    });
    expect(body).toMatchObject({ domain: 'example.com', dnsServers: ['8.8.8.8', '1.1.1.1'] });
    expect(body).not.toHaveProperty('agents');
  });
});

describe('alert rules as read', () => {
  /** A platform whose every answer is the body given. */
  const sessionAnswering = (body: unknown) =>
    new PlatformClient({
      baseUrl: 'https://api.example/v7',
      fetch: async () =>
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
    }).as({ token: 't' });

  it('always carry testIds, whether the answer named them by id or as tests', async () => {
    const byTests = sessionAnswering({ ruleId: '7', ruleName: 'Slow', tests: [{ testId: '10' }, { testId: '11' }] });
    await expect(byTests.alertRules.get('7')).resolves.toMatchObject({ testIds: ['10', '11'] });

    const byIds = sessionAnswering({ ruleId: '7', ruleName: 'Slow', testIds: ['12'], tests: [{ testId: '10' }] });
    await expect(byIds.alertRules.get('7')).resolves.toMatchObject({ testIds: ['12'] });

    const listed = sessionAnswering({ alertRules: [{ ruleId: '8', ruleName: 'Bare' }] });
    await expect(listed.alertRules.list()).resolves.toEqual([{ ruleId: '8', ruleName: 'Bare', testIds: [] }]);
  });
});
