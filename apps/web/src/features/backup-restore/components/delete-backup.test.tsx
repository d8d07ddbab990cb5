import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '@ce/contract';
import { aBackup } from '../backup-fixtures';
import { DeleteBackupDialog } from './delete-backup';

const backup = aBackup({ counts: null, checksum: null });

function renderDialog() {
  const onClose = vi.fn();
  const onDeleted = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <DeleteBackupDialog backup={backup} onClose={onClose} onDeleted={onDeleted} />
    </QueryClientProvider>,
  );
  return { onClose, onDeleted };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('deleting a backup', () => {
  it('names what goes (group, organization, author, items, size) and opens on Cancel, which deletes nothing', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { onClose, onDeleted } = renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Delete this backup?' });
    expect(dialog.textContent).toContain('Acme - Staging (Acme Corporation)');
    expect(dialog.textContent).toContain('by tam@demo.local: 12 items, 34 KB.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(onDeleted).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('deletes it on Delete Backup, with the anti-forgery header', async () => {
    document.cookie = `${CSRF_COOKIE}=token-for-the-test`;
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const { onDeleted } = renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Backup' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledWith(backup));
    expect(fetch).toHaveBeenCalledWith(
      '/api/backups/b1',
      expect.objectContaining({
        method: 'DELETE',
        headers: expect.objectContaining({ [CSRF_HEADER]: 'token-for-the-test' }),
      }),
    );
  });
});
