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

export interface PreviewQuery {
  period: PeriodChoice;
  cutOff: string;
  /** The key tests chosen; null until the person chose (the worst ones the measurements propose). */
  keyTests: readonly string[] | null;
}

/**
 * The customer a narrative or preview is asked for, and the token the browser holds for it (the chosen or a recent
 * customer's): the server shows them only to those tied to the organization (a watch over it, its token, a Super
 * User). The token goes in the body, never in the URL nor in a query's key.
 */
const customerBody = (organizationId: string, token: string | undefined) => ({
  organizationId,
  ...(token ? { token } : {}),
});

/**
 * POST /api/review-preview: the pack's slides from what the toolkit stored (no platform call), for the period up to
 * the cut-off. The slides shown stay while the next ones are read.
 */
export function useReviewPreview(organizationId: string, token: string | undefined, query: PreviewQuery | null) {
  return useQuery({
    queryKey: ['review-preview', organizationId, token !== undefined, query],
    queryFn: () => {
      if (!query) throw new Error('no period');
      return apiRequest<ReviewPreview>('/api/review-preview', {
        method: 'POST',
        body: {
          ...customerBody(organizationId, token),
          period: query.period,
          cutOff: query.cutOff,
          ...(query.keyTests ? { keyTests: query.keyTests } : {}),
        },
      });
    },
    enabled: query !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

const narrativeKey = (organizationId: string, token: string | undefined) =>
  ['review-narrative', organizationId, token !== undefined] as const;

/** POST /api/review-narrative/read: what the last pack's author wrote, kept for the next. */
export function useReviewNarrative(organizationId: string, token: string | undefined) {
  return useQuery({
    queryKey: narrativeKey(organizationId, token),
    queryFn: () =>
      apiRequest<ReviewNarrativeResponse>('/api/review-narrative/read', {
        method: 'POST',
        body: customerBody(organizationId, token),
      }),
    retry: false,
  });
}

/**
 * PUT /api/review-narrative: the narrative kept for this customer's next pack, with the token the browser holds for
 * it (or the one "Build the pack" checked); the preview is read again with it.
 */
export function useSaveNarrative(organizationId: string, held: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: ({ narrative, token = held }: { narrative: ReviewNarrative; token?: string | undefined }) =>
      apiRequest<ReviewNarrativeResponse>('/api/review-narrative', {
        method: 'PUT',
        body: { ...customerBody(organizationId, token), narrative },
      }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(narrativeKey(organizationId, held), saved);
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
 * POST /api/reports with kind `review-pack`: the pack is built in the background and kept in My Reports. The pack
 * saves no narrative: the page saves an edited one first (PUT /api/review-narrative).
 */
export function useBuildPack() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: (request: ReviewPackRequest) =>
      apiRequest<ReportRequest>('/api/reports', { method: 'POST', body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reports'] }),
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
