import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ReportAccountGroup,
  ReportRequest,
  ReviewNarrative,
  ReviewNarrativeResponse,
  ReviewPackOptions,
  ReviewPreview,
} from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { SHOWN_IN_PLACE } from '../../../lib/error-toasts';
import type { PeriodChoice } from '../period';

const customerPath = (organizationId: string, part: string) =>
  `/api/customers/${encodeURIComponent(organizationId)}/${part}`;

export interface PreviewQuery {
  period: PeriodChoice;
  cutOff: string;
  /** The key tests chosen; null until the person chose (the worst ones the measurements propose). */
  keyTests: readonly string[] | null;
}

/**
 * GET /api/customers/{organization}/review-preview: the pack's slides from what the toolkit stored (no platform
 * call), for the period up to the cut-off. The slides shown stay while the next ones are read.
 */
export function useReviewPreview(organizationId: string, query: PreviewQuery | null) {
  return useQuery({
    queryKey: ['review-preview', organizationId, query],
    queryFn: () => {
      if (!query) throw new Error('no period');
      const params = new URLSearchParams({ ...query.period, cutOff: query.cutOff });
      if (query.keyTests) params.set('keyTests', query.keyTests.join(','));
      return apiRequest<ReviewPreview>(`${customerPath(organizationId, 'review-preview')}?${params.toString()}`);
    },
    enabled: query !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

const narrativeKey = (organizationId: string) => ['review-narrative', organizationId] as const;

/** GET /api/customers/{organization}/review-narrative: what the last pack's author wrote, kept for the next. */
export function useReviewNarrative(organizationId: string) {
  return useQuery({
    queryKey: narrativeKey(organizationId),
    queryFn: () => apiRequest<ReviewNarrativeResponse>(customerPath(organizationId, 'review-narrative')),
  });
}

/** PUT the same: the narrative kept for this customer's next pack; the preview is read again with it. */
export function useSaveNarrative(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: (narrative: ReviewNarrative) =>
      apiRequest<ReviewNarrativeResponse>(customerPath(organizationId, 'review-narrative'), {
        method: 'PUT',
        body: narrative,
      }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(narrativeKey(organizationId), saved);
      await queryClient.invalidateQueries({ queryKey: ['review-preview', organizationId] });
    },
  });
}

/** What POST /api/reports takes for a review pack: the customer's token and groups, as every report kind. */
export interface ReviewPackRequest {
  kind: 'review-pack';
  token: string;
  organization: { id: string; name: string };
  accountGroups: Pick<ReportAccountGroup, 'aid' | 'accountGroupName'>[];
  options: ReviewPackOptions;
}

/**
 * POST /api/reports with kind `review-pack`: the pack is built in the background and kept in My Reports. The server
 * keeps the narrative it was requested with, so the kept one is read again.
 */
export function useBuildPack() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: (request: ReviewPackRequest) =>
      apiRequest<ReportRequest>('/api/reports', { method: 'POST', body: request }),
    onSuccess: (_report, request) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['reports'] }),
        queryClient.invalidateQueries({ queryKey: narrativeKey(request.organization.id) }),
      ]),
  });
}

/** GET /api/reports/{id}: the pack's progress, read every second until it is done or failed. */
export function useReport(reportId: string | null) {
  return useQuery({
    queryKey: ['report', reportId],
    queryFn: () => apiRequest<ReportRequest>(`/api/reports/${encodeURIComponent(reportId ?? '')}`),
    enabled: reportId !== null,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'failed' ? false : 1000;
    },
  });
}
