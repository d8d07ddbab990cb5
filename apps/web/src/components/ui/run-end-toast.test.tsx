import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeSetEndToast, useRunEndToast } from './run-end-toast';
import { toast } from './toast-store';

interface Run {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  error: string | null;
  kind: string;
  totals: { done: number; failed: number };
}
const run = (status: Run['status'], totals = { done: 2, failed: 0 }, id = 'run-1'): Run => ({
  id,
  status,
  error: null,
  kind: 'restore',
  totals,
});
const restoreToast = (ended: Run) =>
  changeSetEndToast(ended, { done: 'Restored', noun: 'restore', undo: ended.kind === 'undo-restore' });
const shown = () => toast.getSnapshot().map(({ type, message }) => `${type}: ${message}`);

afterEach(() => {
  for (const item of toast.getSnapshot()) toast.dismiss(item.id);
});

describe('the end-of-run toast', () => {
  it('is said once when a run this page saw going ends, and not for a run that had ended already', () => {
    const { rerender } = renderHook(({ current }: { current: Run }) => useRunEndToast(current, restoreToast), {
      initialProps: { current: run('running') },
    });
    expect(shown()).toEqual([]);
    act(() => rerender({ current: run('done') }));
    act(() => rerender({ current: { ...run('done') } }));
    expect(shown()).toEqual(['success: Restored: 2 changes made']);

    renderHook(() => useRunEndToast(run('done', undefined, 'run-2'), restoreToast));
    expect(shown()).toHaveLength(1);
  });

  it("carries the link to the run's own page, to open it from wherever the toast is read", () => {
    const linked = (ended: Run) => ({
      ...restoreToast(ended),
      link: { to: `/home/tools/backup-restore?run=${ended.id}`, label: 'Open the run' },
    });
    const { rerender } = renderHook(({ current }: { current: Run }) => useRunEndToast(current, linked), {
      initialProps: { current: run('running', undefined, 'run-3') },
    });
    act(() => rerender({ current: run('done', undefined, 'run-3') }));
    expect(toast.getSnapshot().map(({ message, link }) => [message, link])).toEqual([
      ['Restored: 2 changes made', { to: '/home/tools/backup-restore?run=run-3', label: 'Open the run' }],
    ]);
  });

  it('says the same words for every change set: stopped, some failed, all made, reversed', () => {
    expect(
      changeSetEndToast(
        { ...run('failed'), error: 'The token was refused.' },
        {
          done: 'Migrated',
          noun: 'migration',
          undo: false,
        },
      ),
    ).toEqual({ type: 'error', message: 'The token was refused.' });
    expect(changeSetEndToast(run('failed'), { done: 'Restored', noun: 'restore', undo: false }).message).toBe(
      'The restore stopped.',
    );
    expect(restoreToast(run('done', { done: 3, failed: 1 }))).toEqual({
      type: 'warning',
      message: '3 done, 1 failed: each reason is in the results',
    });
    expect(restoreToast(run('done', { done: 1, failed: 0 })).message).toBe('Restored: 1 change made');
    expect(restoreToast({ ...run('done'), kind: 'undo-restore' }).message).toBe('Undone: 2 changes reversed');
  });
});
