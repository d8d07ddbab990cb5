import { z } from 'zod';
import { platformTokenSchema } from './reports.js';

/** The dashboards tool's words (spec sections 5 and 8). */
export const DASHBOARD_MESSAGES = {
  tokenTooShort: 'OAuth token is required (min 34 characters)',
  tokenCheckFailed: 'Failed to validate OAuth token',
  tokenBanner: 'Invalid or unauthorized token. Please check your OAuth token.',
  organizationRequired: 'Please select an organization',
  accountGroupRequired: 'Please select an account group',
  dashboardRequired: 'Please select a dashboard',
  descriptionTooShort: 'The description needs at least 50 characters',
  screenshotRequired: (n: number) => `Screenshot ${n} is required`,
  notAnImage: 'Please upload only image files',
  tooLarge: 'File size should not exceed 5MB',
  formInvalid: 'Please fill all required fields',
  loadFailed: 'Error loading dashboards',
  cloneFailed: 'Error cloning dashboard',
  stored: 'Dashboard stored successfully',
  listFailed: 'Error loading submitted dashboards',
  voteFailed: 'Error processing vote',
  voteAdded: 'Vote added',
  voteRemoved: 'Vote removed',
  pushTokenRequired: 'OAuth token is required to push dashboard',
  pushGroupRequired: 'Please select an account group to push the dashboard',
  /** The push dialog's submit-time toast when no account group is chosen (spec, section 5). */
  pushAccountRequired: 'Please select at least one account to push the dashboard',
  pushRejected: 'A reviewer rejected this dashboard: it cannot be pushed. Clone it again once it is fixed.',
  pushPending: 'This dashboard has not been reviewed yet: check its widgets in the preview before you deploy it.',
  pushMissing: 'Missing data to push dashboard',
  pushUnauthorized: 'Unauthorized: Please check your OAuth token',
  pushFailed: 'Error deploying dashboard',
  pushError: (message: string) => `Error: ${message}`,
  deployed: 'Dashboard deployed successfully',
  pushInProgress: 'This push is already under way: its result shows once it ends.',
  pushKeyReused: 'This push key belongs to another push.',
  fullscreenUnsupported: 'Fullscreen mode not supported in your browser',
  copied: 'JSON copied to clipboard',
  copyFailed: 'Failed to copy JSON to clipboard',
  nothingToCopy: 'No dashboard template to copy',
  noImages: 'No images available',
  empty: 'No Community Dashboards Yet',
} as const;

/** Spec section 9. */
export const DASHBOARD_LIMITS = {
  tokenMin: 34,
  descriptionMin: 50,
  descriptionMax: 2000,
  screenshots: 3,
  screenshotBytes: 5 * 1024 * 1024,
  /** Screenshots are stored at most this wide (re-encoded as PNG). */
  screenshotWidth: 2560,
  reviewMax: 500,
  reviewCommentMax: 500,
  /** Dashboard calls time out after 30 seconds. */
  timeoutMs: 30_000,
} as const;

export const DASHBOARD_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type DashboardStatus = (typeof DASHBOARD_STATUSES)[number];

/** The clone form's token: required and at least 34 characters, with the spec's one message for both. */
export const dashboardTokenSchema = z
  .string()
  .trim()
  .min(DASHBOARD_LIMITS.tokenMin, DASHBOARD_MESSAGES.tokenTooShort)
  .max(4096, 'The token is too long')
  .regex(/^[\x21-\x7e]+$/, 'The token may contain no spaces or special characters');

/** The dashboards of one account group (spec: dashboardId, title). */
export const groupDashboardsRequestSchema = z.object({ token: dashboardTokenSchema, aid: z.string().min(1).max(64) });
export const groupDashboardsResponseSchema = z.object({
  dashboards: z.array(z.object({ dashboardId: z.string(), title: z.string() })),
});
export type GroupDashboard = z.infer<typeof groupDashboardsResponseSchema>['dashboards'][number];

/** The text fields of the clone form's multipart request (the screenshots are its files). */
export const cloneDashboardFieldsSchema = z.object({
  token: dashboardTokenSchema,
  organizationId: z.string().min(1, DASHBOARD_MESSAGES.organizationRequired).max(128),
  aid: z.string().min(1, DASHBOARD_MESSAGES.accountGroupRequired).max(64),
  dashboardId: z.string().min(1, DASHBOARD_MESSAGES.dashboardRequired).max(128),
  description: z
    .string()
    .trim()
    .min(DASHBOARD_LIMITS.descriptionMin, DASHBOARD_MESSAGES.descriptionTooShort)
    .max(DASHBOARD_LIMITS.descriptionMax, 'The description is too long'),
});
export type CloneDashboardFields = z.infer<typeof cloneDashboardFieldsSchema>;

/** What a screenshot's bytes say it is, before it is decoded (the name and declared type are not trusted). */
export function imageKind(bytes: Uint8Array): 'png' | 'jpeg' | 'gif' | 'webp' | null {
  const at = (offset: number, ...values: number[]) => values.every((value, index) => bytes[offset + index] === value);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return null;
}

export const DASHBOARD_SORTS = ['votes', 'newest', 'pushed'] as const;
export type DashboardSort = (typeof DASHBOARD_SORTS)[number];

export const communityListQuerySchema = z.object({
  search: z.string().trim().max(200).default(''),
  sort: z.enum(DASHBOARD_SORTS).default('votes'),
});

export const dashboardReviewSchema = z.object({
  id: z.string(),
  author: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type DashboardReview = z.infer<typeof dashboardReviewSchema>;

/** A submitted community dashboard (spec section 3), with what the gallery adds. */
export const communityDashboardSchema = z.object({
  id: z.string(),
  dashboardId: z.string(),
  title: z.string(),
  description: z.string(),
  creator: z.string(),
  submittedDate: z.string(),
  status: z.enum(DASHBOARD_STATUSES),
  votes: z.number().int().nonnegative(),
  userVoted: z.boolean(),
  pushCount: z.number().int().nonnegative(),
  widgetCount: z.number().int().nonnegative(),
  /** How many screenshots are stored; each is at `/api/community-dashboards/{id}/images/{1..n}`. */
  imageCount: z.number().int().nonnegative(),
  source: z.object({ organizationName: z.string(), accountGroupName: z.string() }),
  review: z
    .object({ status: z.enum(DASHBOARD_STATUSES), comment: z.string(), reviewer: z.string(), reviewedAt: z.string() })
    .nullable(),
  reviews: z.array(dashboardReviewSchema),
});
export type CommunityDashboard = z.infer<typeof communityDashboardSchema>;

export const communityListResponseSchema = z.object({ dashboards: z.array(communityDashboardSchema) });

/** The stored definition: the spec's dashboard_template, a list whose first item is the dashboard. */
export const dashboardTemplateResponseSchema = z.object({
  dashboardTemplate: z.array(z.record(z.string(), z.unknown())),
});

/** Vote toggles: the action sent is the button's current state ('Vote' adds, 'Voted' removes). */
export const voteRequestSchema = z.object({ action: z.enum(['Vote', 'Voted']) });
export const voteResponseSchema = z.object({ votes: z.number().int(), userVoted: z.boolean(), message: z.string() });

export const reviewRequestSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Write a few words')
    .max(DASHBOARD_LIMITS.reviewMax, `A review has at most ${DASHBOARD_LIMITS.reviewMax} characters`),
});

export const statusRequestSchema = z.object({
  status: z.enum(['approved', 'rejected']),
  comment: z.string().trim().max(DASHBOARD_LIMITS.reviewCommentMax).default(''),
});

export const pushRequestSchema = z.object({
  token: z.string().trim().min(1, DASHBOARD_MESSAGES.pushTokenRequired).pipe(platformTokenSchema),
  organizationId: z.string().min(1, 'Please select an organization').max(128),
  aid: z.string().min(1, DASHBOARD_MESSAGES.pushGroupRequired).max(64),
  /**
   * The browser's key for this push (one per confirmation): a request repeated with the same key answers
   * the same push and never creates a second dashboard. Optional for scripts.
   */
  pushId: z.uuid().optional(),
});
export type PushRequest = z.infer<typeof pushRequestSchema>;

const referenceSchema = z.object({ kind: z.string(), widget: z.string() });
export const pushPlanSchema = z.object({
  title: z.string(),
  organizationName: z.string(),
  accountGroupName: z.string(),
  widgetCount: z.number().int(),
  mapped: z.array(referenceSchema.extend({ from: z.string(), to: z.string() })),
  dropped: z.array(referenceSchema.extend({ id: z.string(), name: z.string().optional(), reason: z.string() })),
});
export type PushPlan = z.infer<typeof pushPlanSchema>;

export const pushResponseSchema = z.object({
  message: z.string(),
  dashboardId: z.string(),
  title: z.string(),
  accountGroupName: z.string(),
  plan: pushPlanSchema,
});
