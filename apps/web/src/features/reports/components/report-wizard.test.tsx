import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../../components/ui/toast-store';
import { ReportWizard } from './report-wizard';

describe('the report wizard', () => {
  it("refuses an unknown mission with 'Unrecognized mission: ...' and closes", async () => {
    const onClose = vi.fn();
    const { queryByRole } = render(
      <QueryClientProvider client={new QueryClient()}>
        <ReportWizard mission="make-coffee" title="Coffee" onClose={onClose} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(queryByRole('dialog')).toBeNull();
    expect(toast.getSnapshot().map((item) => [item.type, item.message])).toContainEqual([
      'info',
      'Unrecognized mission: make-coffee',
    ]);
  });
});
