import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../ui/toast-store';
import type { ColumnDef } from '../ui/data-table';
import { RunPanel, type PanelRun, type RunView } from './run-panel';
import type { UndoRunProps } from './undo-run';

interface Item {
  id: string;
  name: string;
}
interface Run extends PanelRun {
  items: Item[];
}

const run = (changes: Partial<Run> = {}): Run => ({
  id: 'run-1',
  status: 'done',
  ahead: null,
  organizationName: 'Acme Corporation',
  totals: { total: 2, pending: 0, done: 1, skipped: 0, failed: 1 },
  items: [
    { id: 'a', name: 'Latency' },
    { id: 'b', name: 'Availability' },
  ],
  ...changes,
});

const COLUMNS: ColumnDef<Item, unknown>[] = [{ id: 'name', header: 'Name', accessorFn: (item) => item.name }];

function show(shown: Run | undefined, view: Partial<RunView<Item>> = {}, undo?: Partial<UndoRunProps>) {
  const onConfirm = vi.fn();
  const panel = (current: Run | undefined) => (
    <RunPanel
      run={current}
      loadingLabel="Loading the run"
      failed={(error) => <p>{error.message}</p>}
      endToast={(ended) => ({ type: 'success', message: `Ended: ${ended.totals.done} done` })}
      view={(current) => ({
        label: 'Results',
        title: 'Results',
        progressLabel: 'Run progress',
        status: <p>status</p>,
        items: { data: current.items, columns: COLUMNS, label: 'Run items', empty: 'Nothing planned yet.' },
        resultsUrl: (format) => `/api/runs/${current.id}/results?format=${format}`,
        undo: {
          label: 'Undo this run',
          description: 'This deletes what the run created.',
          confirmLabel: 'Delete 1 test',
          busyLabel: 'Deleting',
          tokens: [{ label: 'OAuth Token', known: 'known-token' }],
          pending: false,
          onConfirm,
          ...undo,
        },
        ...view,
      })}
    />
  );
  // The tool's page, open on another tab of its own: the run's link keeps it and names the run.
  const routed = (current: Run | undefined) => (
    <MemoryRouter initialEntries={['/home/tools/bulk?tab=labels']}>{panel(current)}</MemoryRouter>
  );
  const { rerender } = render(routed(shown));
  return { onConfirm, rerender: (next: Run) => rerender(routed(next)) };
}

// The browser's scrolling, which jsdom has not: what the panel asked of it.
const scrolled = vi.fn();
beforeEach(() => {
  scrolled.mockClear();
  Element.prototype.scrollIntoView = scrolled;
});
afterEach(() => {
  for (const shown of toast.getSnapshot()) toast.dismiss(shown.id);
});

describe('the run panel of the writing tools', () => {
  it('shows handled of total on its bar, coloured by outcome, and each item', () => {
    show(run());
    const bar = screen.getByRole('progressbar', { name: 'Run progress' });
    expect(bar.getAttribute('aria-valuetext')).toBe('2 of 2 handled: 1 failed');
    expect((bar.firstElementChild as HTMLElement).className).toContain('bg-amber-500');
    const rows = screen.getByRole('table', { name: 'Run items' }).querySelectorAll('tbody tr');
    expect([...rows].map((row) => row.textContent)).toEqual(['Latency', 'Availability']);
  });

  it("says where a queued run waits at its organization's budget, then how many of its calls were made", () => {
    const waiting = { total: 380, pending: 380, done: 0, skipped: 0, failed: 0 };
    const { rerender } = show(run({ status: 'queued', ahead: 3, totals: waiting }));
    expect(screen.getByTestId('job-line').textContent).toBe('Queued: 3 jobs ahead for Acme Corporation');
    rerender(run({ status: 'queued', ahead: 1, totals: waiting }));
    expect(screen.getByTestId('job-line').textContent).toBe('Queued: 1 job ahead for Acme Corporation');
    rerender(run({ status: 'running', ahead: null, totals: { ...waiting, pending: 260, done: 118, failed: 2 } }));
    expect(screen.getByTestId('job-line').textContent).toBe('Running: 120 of 380 calls');
    rerender(run());
    expect(screen.queryByTestId('job-line')).toBeNull();
  });

  it('links the results files (XLSX and CSV) once the run has finished, not before', () => {
    const { rerender } = show(run({ status: 'running', totals: { ...run().totals, pending: 1 } }));
    expect(screen.queryByRole('link', { name: /Download results/ })).toBeNull();
    rerender(run());
    expect(screen.getByRole('link', { name: 'Download results (XLSX)' }).getAttribute('href')).toBe(
      '/api/runs/run-1/results?format=xlsx',
    );
    expect(screen.getByRole('link', { name: 'Download results (CSV)' }).getAttribute('href')).toBe(
      '/api/runs/run-1/results?format=csv',
    );
  });

  it('asks for confirmation before it undoes: the button opens a dialog that says what the undo does', () => {
    const { onConfirm } = show(run());
    fireEvent.click(screen.getByRole('button', { name: 'Undo this run' }));
    const dialog = screen.getByRole('dialog', { name: 'Undo this run' });
    expect(dialog.textContent).toContain('This deletes what the run created.');
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete 1 test' }));
    expect(onConfirm).toHaveBeenCalledWith(['known-token'], expect.any(Function));
  });

  it('opens its confirmation on Cancel, and Cancel closes it having undone nothing', () => {
    const { onConfirm } = show(run());
    fireEvent.click(screen.getByRole('button', { name: 'Undo this run' }));
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.click(cancel);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('asks in the confirmation for a token the page no longer holds, and starts only once it is given', () => {
    const { onConfirm } = show(run(), {}, { tokens: [{ label: 'OAuth Token', known: '' }] });
    fireEvent.click(screen.getByRole('button', { name: 'Undo this run' }));
    const confirm = screen.getByRole('button', { name: 'Delete 1 test' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('OAuth Token'), { target: { value: '  typed-token ' } });
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith(['typed-token'], expect.any(Function));
  });

  it('brings its results into view and focus when a run this page saw going ends, not when it opens ended', () => {
    const { rerender } = show(run({ status: 'running', totals: { ...run().totals, pending: 1 } }));
    const results = screen.getByRole('region', { name: 'Results' });
    expect(document.activeElement).not.toBe(results);
    rerender(run());
    expect(document.activeElement).toBe(results);
    expect(scrolled).toHaveBeenCalledTimes(1);
  });

  it('leaves the focus where it is when a run opens already ended', () => {
    show(run());
    expect(document.activeElement).toBe(document.body);
    expect(scrolled).not.toHaveBeenCalled();
  });

  it('offers no undo when the tool says the run cannot be undone', () => {
    show(run(), { undo: undefined });
    expect(screen.queryByRole('button', { name: 'Undo this run' })).toBeNull();
  });

  it('ends a run it saw going with the tool’s end-of-run toast, once', async () => {
    const { rerender } = show(run({ status: 'running', totals: { ...run().totals, pending: 1 } }));
    act(() => rerender(run()));
    await waitFor(() => expect(toast.getSnapshot().map(({ message }) => message)).toEqual(['Ended: 1 done']));
  });

  it("links to the run's own page beside its title and in its end-of-run toast", async () => {
    const { rerender } = show(run({ status: 'running', totals: { ...run().totals, pending: 1 } }));
    expect(screen.getByRole('link', { name: 'Link to this run' }).getAttribute('href')).toBe(
      '/home/tools/bulk?tab=labels&run=run-1',
    );
    act(() => rerender(run()));
    await waitFor(() =>
      expect(toast.getSnapshot().map(({ link }) => link)).toEqual([
        { to: '/home/tools/bulk?tab=labels&run=run-1', label: 'Open the run' },
      ]),
    );
  });

  it('says it is loading the run until the tool has it', () => {
    show(undefined);
    expect(screen.getByRole('status', { name: 'Loading the run' })).toBeTruthy();
  });
});
