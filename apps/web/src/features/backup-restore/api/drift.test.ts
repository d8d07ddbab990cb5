import { afterEach, describe, expect, it, vi } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '@ce/contract';
import { exportDrift } from './drift';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = `${CSRF_COOKIE}=; max-age=0`;
});

describe('the drift export', () => {
  it('posts the comparison through the API client (the anti-forgery header, a JSON body) and saves the file', async () => {
    document.cookie = `${CSRF_COOKIE}=csrf-1`;
    const fetched = vi.fn(async () => new Response(new Uint8Array([80, 75]), { status: 200 }));
    vi.stubGlobal('fetch', fetched);
    const saved = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:drift');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    await exportDrift('0123456789abcdef', { backupId: '5f0c6a8e-2b1d-4c3e-9f4a-7b8c9d0e1f2a' }, 'xlsx');
    expect(fetched).toHaveBeenCalledWith(
      '/api/backups/0123456789abcdef/drift/export?format=xlsx',
      expect.objectContaining({
        method: 'POST',
        credentials: 'same-origin',
        body: JSON.stringify({ backupId: '5f0c6a8e-2b1d-4c3e-9f4a-7b8c9d0e1f2a' }),
        headers: expect.objectContaining({ 'content-type': 'application/json', [CSRF_HEADER]: 'csrf-1' }),
      }),
    );
    expect(saved).toHaveBeenCalledTimes(1);
  });

  it('says in words what went wrong when the answer is not JSON (a proxy’s error page)', async () => {
    document.cookie = `${CSRF_COOKIE}=csrf-1`;
    vi.stubGlobal(
      'fetch',
      async () => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(
      exportDrift('backup-1', { backupId: '5f0c6a8e-2b1d-4c3e-9f4a-7b8c9d0e1f2a' }, 'html'),
    ).rejects.toMatchObject({
      status: 502,
      message: 'Server error: Bad Gateway (502)',
    });
  });
});
