import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { toast } from '../ui/toast-store';
import { RunPanel, type PanelRun } from './run-panel';

interface Run extends PanelRun {
  items: { id: string }[];
}

const run = (changes: Partial<Run> = {}): Run => ({
  id: 'run-1',
  status: 'done',
  ahead: null,
  organizationName: 'Acme Corporation',
  totals: { total: 1, pending: 0, done: 0, skipped: 0, failed: 1 },
  items: [{ id: 'a' }],
  undoneBy: null,
  ...changes,
});

/** A panel whose tool says "success" whatever happened: the panel's outcome and the toast's type still agree. */
function show(shown: Run) {
  const panel = (current: Run) => (
    <MemoryRouter>
      <RunPanel
        run={current}
        loadingLabel="Loading the run"
        failed={(error) => <p>{error.message}</p>}
        endToast={() => ({ type: 'success', message: 'The tool’s words' })}
        view={(current) => ({
          label: 'Results',
          title: 'Results',
          progressLabel: 'Run progress',
          status: <p>status</p>,
          items: {
            data: current.items,
            columns: [],
            label: 'Run items',
            empty: 'Nothing.',
            none: <p>Preparing the run…</p>,
          },
        })}
      />
    </MemoryRouter>
  );
  const { rerender } = render(panel(shown));
  return (next: Run) => rerender(panel(next));
}

afterEach(() => {
  for (const shown of toast.getSnapshot()) toast.dismiss(shown.id);
});

const outcome = () => screen.queryByTestId('run-outcome');

describe("a run's outcome in its panel and its end toast", () => {
  it('says nothing of an outcome while the run is under way', () => {
    show(run({ status: 'queued', totals: { total: 0, pending: 0, done: 0, skipped: 0, failed: 0 }, items: [] }));
    expect(outcome()).toBeNull();
    expect(screen.getByText('Preparing the run…')).toBeTruthy();
  });

  it('a run where not one item was done failed: in red words, and its toast is an error, shown with it', async () => {
    const rerender = show(run({ status: 'running', totals: { total: 1, pending: 1, done: 0, skipped: 0, failed: 0 } }));
    act(() => rerender(run()));
    expect(outcome()?.getAttribute('data-outcome')).toBe('failed');
    expect(outcome()?.textContent).toBe('failedIts one item was not done: the reason is below.');
    expect(outcome()?.querySelector('.bg-red-100')).toBeTruthy();
    await waitFor(() => expect(toast.getSnapshot().map(({ type }) => type)).toEqual(['error']));
  });

  it('some failed: done with failures, in amber, and a warning', async () => {
    const partly = { total: 3, pending: 0, done: 2, skipped: 0, failed: 1 };
    const rerender = show(run({ status: 'running', totals: { ...partly, pending: 1, failed: 0 } }));
    act(() => rerender(run({ totals: partly })));
    expect(outcome()?.textContent).toBe('done with failures2 done, 1 failed: each reason is below.');
    expect(outcome()?.querySelector('.bg-amber-100')).toBeTruthy();
    await waitFor(() => expect(toast.getSnapshot().map(({ type }) => type)).toEqual(['warning']));
  });

  it('every item done: done, in green, and the tool’s own toast; undone once its undo reversed it', async () => {
    const done = { total: 1, pending: 0, done: 1, skipped: 0, failed: 0 };
    const rerender = show(run({ status: 'running', totals: { ...done, pending: 1, done: 0 } }));
    act(() => rerender(run({ totals: done })));
    expect(outcome()?.getAttribute('data-outcome')).toBe('done');
    expect(outcome()?.querySelector('.bg-green-100')).toBeTruthy();
    await waitFor(() =>
      expect(toast.getSnapshot().map(({ type, message }) => [type, message])).toEqual([
        ['success', 'The tool’s words'],
      ]),
    );
    rerender(run({ totals: done, undoneBy: 'run-2' }));
    expect(outcome()?.textContent).toBe('undoneReversed since by its undo.');
  });

  it('a run that stopped failed, its reason left to the tool’s own line', () => {
    show(run({ status: 'failed', totals: { total: 0, pending: 0, done: 0, skipped: 0, failed: 0 }, items: [] }));
    expect(outcome()?.textContent).toBe('failed');
  });
});
