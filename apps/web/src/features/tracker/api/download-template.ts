import { useMutation } from '@tanstack/react-query';
import { TEMPLATE_FILENAME } from '@ce/contract';
import { apiBlob } from '../../../lib/api-client';
import { downloadBlob } from '../../../lib/download';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** GET /api/tracker/template, saved as Task_Tracker_Template.xlsx. */
export function useDownloadTemplate(meta?: ErrorToastMeta) {
  return useMutation({
    meta,
    mutationFn: async () => downloadBlob(TEMPLATE_FILENAME, await apiBlob('/api/tracker/template')),
  });
}
