import { useMutation } from '@tanstack/react-query';
import type { Drift, DriftRequest } from '@ce/contract';
import { apiBlob, apiRequest } from '../../../lib/api-client';
import { downloadBlob } from '../../../lib/download';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/backups/:id/drift: what changed since the backup (against live with a token, or a backup). */
export const fetchDrift = ({ id, against }: { id: string; against: DriftRequest }) =>
  apiRequest<Drift>(`/api/backups/${id}/drift`, { method: 'POST', body: against });

export function useDrift(meta?: ErrorToastMeta) {
  return useMutation({ meta, mutationFn: fetchDrift });
}

/** POST /api/backups/:id/drift/export: the comparison as a file, saved through the browser. */
export async function exportDrift(id: string, against: DriftRequest, format: 'xlsx' | 'html'): Promise<void> {
  const file = await apiBlob(`/api/backups/${id}/drift/export?format=${format}`, { method: 'POST', body: against });
  downloadBlob(`drift-${id.slice(0, 8)}.${format}`, file);
}

export function useExportDrift(meta?: ErrorToastMeta) {
  return useMutation({
    meta,
    mutationFn: ({ id, against, format }: { id: string; against: DriftRequest; format: 'xlsx' | 'html' }) =>
      exportDrift(id, against, format),
  });
}
