import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeSetItem, MigrationRun } from '@ce/contract';
import { migrationQueryKey } from '../api/run';
import { MigrationRunPanel } from './migration-run';

const item: ChangeSetItem = {
  id: 'i1',
  position: 0,
  phase: 0,
  action: 'create-rule',
  aid: '1',
  accountGroupName: 'EMEA',
  subject: 'Latency',
  status: 'failed',
  resultId: null,
  note: null,
  error: 'The platform refused the rule',
};

const finishedRun = (changes: Partial<MigrationRun>): MigrationRun => ({
  id: 'run-1',
  kind: 'alerts-migration',
  status: 'done',
  ahead: null,
  requestedBy: 'tam@demo.local',
  organizationName: 'Acme',
  error: null,
  totals: { total: 0, pending: 0, done: 0, skipped: 0, failed: 0 },
  items: [],
  createdAt: '2026-01-05T10:00:00.000Z',
  startedAt: '2026-01-05T10:00:01.000Z',
  finishedAt: '2026-01-05T10:00:02.000Z',
  undoOf: null,
  undoneBy: null,
  message: null,
  sourceAccountGroupName: 'EMEA',
  targetAccountGroupNames: ['APAC'],
  targetOrganizationName: null,
  mode: 'copy',
  ...changes,
});

/** The panel of a migration the server already answered (a finished one is not read again). */
function renderPanel(run: MigrationRun, tokens = { token: '', targetToken: '' }) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(migrationQueryKey(run.id), run);
  render(
    <MemoryRouter initialEntries={[`/home/tools/alerts-migration?run=${run.id}`]}>
      <QueryClientProvider client={queryClient}>
        <MigrationRunPanel runId={run.id} tokens={tokens} onOpen={() => {}} onNew={() => {}} />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  const bar = screen.getByRole('progressbar', { name: 'Migration progress' });
  return { bar, fill: bar.firstElementChild as HTMLElement };
}

describe('the migration panel', () => {
  it('with nothing planned, its bar is empty while it says "0 done" and "Nothing planned yet"', () => {
    const { bar, fill } = renderPanel(finishedRun({}));
    expect(screen.getByTestId('migration-status').textContent).toContain('0 done');
    expect(screen.getByText('Nothing planned yet.')).toBeTruthy();
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect(fill.style.width).toBe('0%');
  });

  it('links to its own page beside its title, the address that opens this migration again', () => {
    renderPanel(finishedRun({ id: 'run-7' }));
    expect(screen.getByRole('link', { name: 'Link to this run' }).getAttribute('href')).toBe(
      '/home/tools/alerts-migration?run=run-7',
    );
  });

  it('when its only item failed, its bar is red, not green', () => {
    const { bar, fill } = renderPanel(
      finishedRun({ totals: { total: 1, pending: 0, done: 0, skipped: 0, failed: 1 }, items: [item] }),
    );
    expect(screen.getByTestId('migration-status').textContent).toContain('1 failed');
    expect(bar.getAttribute('aria-valuetext')).toBe('1 of 1 handled: 1 failed');
    expect(fill.className).toContain('bg-red-600');
    expect(fill.className).not.toMatch(/bg-(green|brand)-/);
  });

  it("says where its summary's Webex message stands: given up with why, waiting, or sent", () => {
    renderPanel(finishedRun({ message: { status: 'failed', error: 'Webex refused the message (403)' } }));
    expect(screen.getByTestId('run-message').textContent).toBe(
      'Its summary was not sent to Webex (Webex refused the message (403)). Its results are on this page.',
    );
    cleanup();
    renderPanel(finishedRun({ message: { status: 'waiting', error: 'Webex could not be reached' } }));
    expect(screen.getByTestId('run-message').textContent).toBe(
      'Its summary waits for Webex (Webex could not be reached): it is tried again, and sent once.',
    );
    cleanup();
    renderPanel(finishedRun({ message: { status: 'sent', error: null } }));
    expect(screen.getByText('Its summary was sent to Webex.')).toBeTruthy();
    cleanup();
    renderPanel(finishedRun({}));
    expect(screen.queryByTestId('run-message')).toBeNull();
    expect(screen.queryByText(/summary/)).toBeNull();
  });

  it('asks before it undoes a migration: Undo Migration opens a confirmation, and its Cancel starts nothing', () => {
    const fetched = vi.spyOn(globalThis, 'fetch');
    renderPanel(
      finishedRun({
        totals: { total: 1, pending: 0, done: 1, skipped: 0, failed: 0 },
        items: [{ ...item, status: 'done', error: null, resultId: '42' }],
      }),
      { token: 'source-token', targetToken: '' },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Undo Migration' }));
    const dialog = screen.getByRole('dialog', { name: 'Undo Migration' });
    expect(dialog.textContent).toContain('This deletes the 1 alert rule it created in EMEA. Nothing else changes.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetched.mock.calls.filter(([url]) => String(url).endsWith('/undo'))).toEqual([]);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
