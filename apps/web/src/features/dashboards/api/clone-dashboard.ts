import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DASHBOARD_LIMITS, type CloneDashboardFields, type CommunityDashboard } from '@ce/contract';
import { uploadForm } from '../../../lib/upload';
import { communityQueryKey } from './community-dashboards';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

export interface CloneInput extends CloneDashboardFields {
  screenshots: File[];
  onProgress?: (share: number) => void;
}

/** POST /api/community-dashboards (multipart, with upload progress): stores a dashboard in the gallery. */
export const cloneDashboard = ({ screenshots, onProgress, ...fields }: CloneInput) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  screenshots.forEach((file, index) => form.append(`screenshot${index + 1}`, file, file.name));
  return uploadForm<CommunityDashboard>('/api/community-dashboards', form, {
    onProgress,
    timeoutMs: DASHBOARD_LIMITS.timeoutMs,
  });
};

/** A successful clone reloads the gallery (spec section 4). */
export function useCloneDashboard(meta?: ErrorToastMeta) {
  const queryClient = useQueryClient();
  return useMutation({
    meta,
    mutationFn: cloneDashboard,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityQueryKey() }),
  });
}
