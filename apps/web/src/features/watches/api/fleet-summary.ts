import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '../../../lib/api-client';
import { downloadBlob } from '../../../lib/download';

/** GET /api/watch-portfolio/fleet?format=csv: the fleet summary of the book shown, saved as a CSV of the day. */
export function useExportFleet() {
  return useMutation({
    mutationFn: async (everyone: boolean) =>
      downloadBlob(
        `fleet-summary-${new Date().toISOString().slice(0, 10)}.csv`,
        await apiBlob(`/api/watch-portfolio/fleet?format=csv&everyone=${String(everyone)}`),
      ),
  });
}
