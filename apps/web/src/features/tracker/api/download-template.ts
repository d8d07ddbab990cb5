import { useMutation } from '@tanstack/react-query';
import { TEMPLATE_FILENAME } from '@ce/contract';
import { apiBlob } from '../../../lib/api-client';
import { downloadBlob } from '../../../lib/download';

/** GET /api/tracker/template, saved as Task_Tracker_Template.xlsx. */
export function useDownloadTemplate() {
  return useMutation({
    mutationFn: async () => downloadBlob(TEMPLATE_FILENAME, await apiBlob('/api/tracker/template')),
  });
}
