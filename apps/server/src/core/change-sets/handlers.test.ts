import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changeHandler, mergeTools, sendAgain, undoKind, type ChangeSetTools } from './handlers.js';
import type { ChangeItemRow, ChangeSetRepository, ChangeSetRow } from './repository.js';

const create = changeHandler({
  payload: z.object({ name: z.string() }),
  failure: 'Failed to create',
  execute: async () => ({ resultId: 'new' }),
  reconcile: sendAgain,
  undo: ({ name }, item) => (item.resultId ? { action: 'delete', payload: { id: item.resultId, name } } : null),
});
const remove = changeHandler({
  payload: z.object({ id: z.string() }),
  failure: 'Failed to delete',
  execute: async () => ({}),
  reconcile: sendAgain,
  undo: (_payload, item) => (item.before ? { action: 'create', payload: { name: String(item.before.name) } } : null),
});
const item = (position: number, phase: number, changes: Partial<ChangeItemRow>): ChangeItemRow =>
  ({
    id: `i${position}`,
    runId: 'r',
    position,
    phase,
    side: 'source',
    inputIndex: null,
    aid: 'g1',
    accountGroupName: 'EMEA',
    subject: `item ${position}`,
    payload: {},
    status: 'done',
    resultId: null,
    note: null,
    error: null,
    before: null,
    details: null,
    startedAt: null,
    finishedAt: null,
    ...changes,
  }) as ChangeItemRow;

describe('the change-set engine table', () => {
  it('refuses two tools registering the same kind or action', () => {
    const tool = (kind: string, action: string): ChangeSetTools => ({
      kinds: { [kind]: { plan: async () => [] } },
      actions: { [action]: create },
    });
    expect(Object.keys(mergeTools(tool('a', 'x'), tool('b', 'y')).actions)).toEqual(['x', 'y']);
    expect(() => mergeTools(tool('a', 'x'), tool('a', 'y'))).toThrow('change-set kinds: "a" is registered twice');
    expect(() => mergeTools(tool('a', 'x'), tool('b', 'x'))).toThrow('change-set actions: "x" is registered twice');
  });

  it('plans an undo from what was done: last phase first, last item first, only what can be undone', async () => {
    const items = [
      item(0, 0, { action: 'create', payload: { name: 'A' }, resultId: '1' }),
      item(1, 0, { action: 'create', payload: { name: 'B' }, resultId: '2', side: 'target' }),
      item(2, 0, { action: 'create', payload: { name: 'C' }, status: 'failed' }),
      item(3, 1, { action: 'delete', payload: { id: 's1' }, resultId: 's1', before: { name: 'Source' } }),
    ];
    const repository = { items: async () => items } as unknown as ChangeSetRepository;
    const run = { input: { sourceRunId: 'r' } } as unknown as ChangeSetRow;
    const planned = await undoKind(() => ({ create, delete: remove })).plan(
      run,
      { source: null as never, target: null },
      repository,
    );
    expect(planned.map((step) => [step.position, step.phase, step.action, step.payload, step.side])).toEqual([
      [0, 0, 'create', { name: 'Source' }, 'source'],
      [1, 1, 'delete', { id: '2', name: 'B' }, 'target'],
      [2, 1, 'delete', { id: '1', name: 'A' }, 'source'],
    ]);
  });

  it('undoes what an item recorded as failed made after all, as the platform tells, and nothing of one never sent', async () => {
    const asked: string[] = [];
    // The platform has "C" (its answer was lost, or a worker that had lost the set recorded it failed), not "D".
    const found = changeHandler({
      payload: z.object({ name: z.string() }),
      failure: 'Failed to create',
      execute: async () => ({ resultId: 'new' }),
      undo: ({ name }, item) => (item.resultId ? { action: 'delete', payload: { id: item.resultId, name } } : null),
      reconcile: async (_session, { name }) => {
        asked.push(name);
        return name === 'C' ? 'made-c' : null;
      },
    });
    const sent = new Date('2026-11-26T10:00:00Z');
    const items = [
      item(0, 0, { action: 'create', payload: { name: 'A' }, resultId: '1' }),
      item(1, 0, { action: 'create', payload: { name: 'C' }, status: 'failed', startedAt: sent }),
      item(2, 0, { action: 'create', payload: { name: 'D' }, status: 'failed', startedAt: sent }),
      item(3, 0, { action: 'create', payload: { name: 'E' }, status: 'failed' }),
    ];
    const repository = { items: async () => items } as unknown as ChangeSetRepository;
    const run = { input: { sourceRunId: 'r' } } as unknown as ChangeSetRow;
    const planned = await undoKind(() => ({ create: found })).plan(
      run,
      { source: null as never, target: null },
      repository,
    );
    expect(planned.map((step) => step.payload)).toEqual([
      { id: 'made-c', name: 'C' },
      { id: '1', name: 'A' },
    ]);
    // Only items that were sent are asked about.
    expect(asked).toEqual(['C', 'D']);
  });
});
