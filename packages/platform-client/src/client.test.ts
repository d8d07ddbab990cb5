import { describe, expect, it } from 'vitest';
import { writableTestBody } from './client.js';

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
