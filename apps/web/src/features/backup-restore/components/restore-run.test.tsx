import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { RestoreRun } from '@ce/contract';
import { toast } from '../../../components/ui/toast-store';
import { restoreQueryKey } from '../api/restore';
import { RestoreRunPanel } from './restore-run';

const restore = (changes: Partial<RestoreRun>): RestoreRun => ({
  id: 'restore-1',
  kind: 'restore',
  status: 'running',
  ahead: null,
  requestedBy: 'tam@demo.local',
  organizationName: 'Acme',
  error: null,
  totals: { total: 1, pending: 1, done: 0, skipped: 0, failed: 0 },
  items: [],
  createdAt: '2026-01-05T10:00:00.000Z',
  startedAt: '2026-01-05T10:00:01.000Z',
  finishedAt: null,
  undoOf: null,
  undoneBy: null,
  message: null,
  backupId: 'backup-1',
  accountGroupName: 'Acme - Staging',
  targetOrganizationName: null,
  ...changes,
});

afterEach(() => {
  for (const shown of toast.getSnapshot()) toast.dismiss(shown.id);
});

describe('the restore panel', () => {
  it('ends a restore it saw running with the end-of-run toast every writing tool shows', async () => {
    // Read by the server already: the panel shows what the query holds, never fetching here.
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    queryClient.setQueryData(restoreQueryKey('restore-1'), restore({}));
    render(
      <MemoryRouter initialEntries={['/home/tools/backup-restore?run=restore-1']}>
        <QueryClientProvider client={queryClient}>
          <RestoreRunPanel runId="restore-1" token="" targetToken="" onOpen={() => {}} />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(toast.getSnapshot()).toEqual([]);
    act(() => {
      queryClient.setQueryData(
        restoreQueryKey('restore-1'),
        restore({
          status: 'done',
          totals: { total: 1, pending: 0, done: 1, skipped: 0, failed: 0 },
          finishedAt: '2026-01-05T10:00:03.000Z',
        }),
      );
    });
    await waitFor(() =>
      expect(toast.getSnapshot().map(({ type, message, link }) => [type, message, link])).toEqual([
        [
          'success',
          'Restored: 1 change made',
          { to: '/home/tools/backup-restore?run=restore-1', label: 'Open the run' },
        ],
      ]),
    );
  });
});
