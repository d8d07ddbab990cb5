import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { BulkRun, BulkRunItem } from '@ce/contract';
import { runQueryKey } from '../api/run';
import { TestRunPanel, undoTestsQuestion } from './test-run-panel';

const item = (accountGroupName: string, status: BulkRunItem['status'] = 'done', at = 0): BulkRunItem => ({
  id: `${accountGroupName}-${at}`,
  position: at,
  action: 'create-test',
  templateIndex: 0,
  aid: accountGroupName,
  accountGroupName,
  subject: `Test ${at}`,
  status,
  resultId: status === 'done' ? String(100 + at) : null,
  note: status === 'skipped' ? 'Already exists' : null,
  error: null,
});

const finished = (items: BulkRunItem[]): BulkRun => ({
  id: 'run-9',
  kind: 'tests',
  status: 'done',
  ahead: null,
  requestedBy: 'tam@demo.local',
  organizationName: 'Acme',
  accountGroups: [],
  templates: [],
  error: null,
  totals: {
    total: items.length,
    pending: 0,
    done: items.filter((one) => one.status === 'done').length,
    skipped: items.filter((one) => one.status === 'skipped').length,
    failed: 0,
  },
  items,
  createdAt: '2026-01-05T10:00:00.000Z',
  startedAt: '2026-01-05T10:00:01.000Z',
  finishedAt: '2026-01-05T10:00:02.000Z',
  executionTimeMs: 1000,
  undoOf: null,
  undoneBy: null,
});

function renderPanel(run: BulkRun) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(runQueryKey(run.id), run);
  render(
    <MemoryRouter initialEntries={[`/home/tools/bulk-tests?run=${run.id}`]}>
      <QueryClientProvider client={queryClient}>
        <TestRunPanel runId={run.id} knownToken="token" onOpenRun={() => {}} onNewSession={() => {}} />
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

describe('the bulk tests run panel', () => {
  it('asks "Delete 6 tests created in Acme - Staging?" before undoing, with Cancel where it opens', () => {
    renderPanel(finished(Array.from({ length: 6 }, (_, at) => item('Acme - Staging', 'done', at))));
    fireEvent.click(screen.getByRole('button', { name: 'Undo this run' }));
    const dialog = screen.getByRole('dialog', { name: 'Undo this run' });
    expect(dialog.textContent).toContain('Delete 6 tests created in Acme - Staging?');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Delete 6 tests' })).toBeTruthy();
  });

  it('names every group a test was created in, and not a group where it was only skipped', () => {
    const run = finished([item('Acme - Staging'), item('Acme - EMEA', 'done', 1), item('Acme - APAC', 'skipped', 2)]);
    expect(undoTestsQuestion(run)).toBe(
      'Delete 2 tests created in Acme - Staging, Acme - EMEA? Tests it skipped because they already existed stay as they are, and nothing else changes.',
    );
  });

  it('links to this run beside its title', () => {
    renderPanel(finished([item('Acme - Staging')]));
    expect(screen.getByRole('link', { name: 'Link to this run' }).getAttribute('href')).toBe(
      '/home/tools/bulk-tests?run=run-9',
    );
  });
});
