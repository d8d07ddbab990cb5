import { describe, expect, it } from 'vitest';
import { failureOf, itemPayload } from './bulk-actions.js';

describe('item payloads read back from the database', () => {
  it('are checked against their action: a stored row becomes one typed value', () => {
    expect(
      itemPayload({
        action: 'create-test',
        payload: { type: 'bgp', body: { testName: 'Prefix', prefix: '203.0.113.0/24' } },
      }),
    ).toEqual({
      action: 'create-test',
      type: 'bgp',
      body: { testName: 'Prefix', prefix: '203.0.113.0/24' },
      knownIds: [],
    });
    expect(itemPayload({ action: 'delete-agent', payload: { agentId: '42' } })).toEqual({
      action: 'delete-agent',
      agentId: '42',
    });
  });

  it('refuse a payload that does not fit its action, or an unknown action', () => {
    expect(() => itemPayload({ action: 'delete-test', payload: { testId: '1' } })).toThrow();
    expect(() => itemPayload({ action: 'create-test', payload: { type: 'ftp', body: { testName: 'x' } } })).toThrow();
    expect(() => itemPayload({ action: 'format-disk', payload: {} })).toThrow();
    expect(() => itemPayload({ action: 'delete-agent', payload: 'agent 42' })).toThrow();
  });

  it('name what failed in the words of each action', () => {
    expect(failureOf('create-test')).toBe('Failed to create test');
    expect(failureOf('invite-user')).toBe('Failed to invite user');
  });
});
