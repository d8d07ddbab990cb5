import type { z } from 'zod';
import {
  ahcIeOptionsSchema,
  closureOptionsSchema,
  reportRequestSchema,
  reviewPackOptionsSchema,
  tamActivityOptionsSchema,
  type CreateReportInput,
  type ReportRequest,
  type SessionUser,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';
import { reviewWindow, withRequestedWith } from '../review/index.js';
import type { ArtifactSummary, ReportRow } from './reports.repository.js';

// A report request as the API takes it (its options checked) and answers it (a stored row in the API's words).

/** What a stored row holds in words the API names (this version's kinds and states). */
const storedState = reportRequestSchema
  .pick({ kind: true, status: true })
  .extend({ deliveryStatus: reportRequestSchema.shape.delivery.shape.status });

export function toApi(
  row: ReportRow & { requestedBy: string },
  artifacts: ArtifactSummary[],
  ahead: Map<string, number>,
): ReportRequest {
  const { kind, status, deliveryStatus } = storedState.parse(row);
  return {
    id: row.id,
    kind,
    requestedBy: row.requestedBy,
    organizationName: row.organizationName,
    accountGroups: row.accountGroups,
    options: row.options,
    status,
    ahead: ahead.get(row.id) ?? null,
    progress: { done: row.progressDone, total: row.progressTotal },
    error: row.error,
    delivery: { status: deliveryStatus, error: row.deliveryError },
    artifacts: artifacts
      .filter((artifact) => artifact.reportId === row.id)
      .map(({ reportId: _reportId, ...artifact }) => artifact),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

function checked(schema: z.ZodType<Record<string, unknown>>, options: unknown): Record<string, unknown> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError(400, 'invalid_options', issue?.message ?? 'Invalid options', [
    { path: ['options', ...(issue?.path ?? [])].join('.'), message: issue?.message ?? 'Invalid options' },
  ]);
}

/** The options a kind takes, checked (defaults filled in): AHC-IE's tables and days range, TAM activity's days range and planner; none for the others. */
export function optionsFor(input: CreateReportInput, caller: SessionUser): Record<string, unknown> {
  if (input.kind === 'ahc-ie') return checked(ahcIeOptionsSchema, input.options);
  if (input.kind === 'tam-activity') return checked(tamActivityOptionsSchema, input.options);
  if (input.kind === 'closure-units' || input.kind === 'closure-endpoints')
    return checked(closureOptionsSchema, input.options);
  if (input.kind === 'review-pack') {
    const options = reviewPackOptionsSchema.parse(checked(reviewPackOptionsSchema, input.options));
    // A period yet to start, or a cut-off before it, is refused now rather than failing in the background.
    reviewWindow(options, new Date());
    // Built from the stored records, as the caller may read them: a personal API token's capabilities go with it.
    return withRequestedWith(options, caller);
  }
  return {};
}
