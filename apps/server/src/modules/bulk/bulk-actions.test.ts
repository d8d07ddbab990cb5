import { describe, expect, it } from 'vitest';
import { BULK_ACTIONS } from './bulk-actions.js';

const read = (action: keyof typeof BULK_ACTIONS, payload: unknown) => BULK_ACTIONS[action].payload.parse(payload);

describe('item payloads read back from the database', () => {
  it('are checked against their action: a stored row becomes one typed value', () => {
    expect(read('create-test', { type: 'bgp', body: { testName: 'Prefix', prefix: '203.0.113.0/24' } })).toEqual({
      type: 'bgp',
      body: { testName: 'Prefix', prefix: '203.0.113.0/24' },
      knownIds: [],
    });
    expect(read('delete-agent', { agentId: '42' })).toEqual({ agentId: '42' });
  });

  it('refuse a payload that does not fit its action', () => {
    expect(() => read('delete-test', { testId: '1' })).toThrow();
    expect(() => read('create-test', { type: 'ftp', body: { testName: 'x' } })).toThrow();
    expect(() => read('delete-agent', 'agent 42')).toThrow();
  });

  it('name what failed in the words of each action', () => {
    expect(BULK_ACTIONS['create-test'].failure).toBe('Failed to create test');
    expect(BULK_ACTIONS['invite-user'].failure).toBe('Failed to invite user');
  });

  it('undo a created test by deleting exactly it, and nothing else', () => {
    const created = { resultId: 't-9' } as never;
    expect(
      BULK_ACTIONS['create-test'].undo?.(
        read('create-test', { type: 'agent-to-server', body: { testName: 'x' } }),
        created,
      ),
    ).toEqual({
      action: 'delete-test',
      payload: { type: 'agent-to-server', testId: 't-9' },
      resultId: 't-9',
    });
    expect(BULK_ACTIONS['delete-agent'].undo).toBeUndefined();
  });
});
