import { z } from 'zod';
import {
  AHC_TABLES,
  CLOSURE_KINDS,
  closureOptionsSchema,
  missingDataMessage,
  platformTokenSchema,
  REPORT_KINDS,
  REPORT_REQUEST_MESSAGES,
  REPORT_TOASTS,
  type CreateReportInput,
  type ReportAccountGroup,
  type ReportKind,
} from '@ce/contract';
import { ApiRequestError } from '../../../../lib/api-client';
import type { ErrorToastMeta } from '../../../../lib/error-toasts';

export const isClosure = (kind: ReportKind | null) => (CLOSURE_KINDS as readonly string[]).includes(kind ?? '');
export const isKnownMission = (mission: string): mission is ReportKind => Object.hasOwn(REPORT_KINDS, mission);
export const INVALID_TOKEN = 'Invalid OAuth token. Please check your token and try again.';

/** The wizard's fields, checked by the contract's own token rule and the spec's messages (section 5). */
export const wizardSchema = (needsAccounts: boolean) =>
  z.object({
    token: platformTokenSchema,
    organizationId: z.string().min(1, 'Please select an organization'),
    accountGroups: needsAccounts
      ? z.array(z.string()).min(1, 'Please select at least one account group')
      : z.array(z.string()),
    tamDays: z.number().int(),
    ahcDays: z.number().int(),
    tables: z.array(z.enum(AHC_TABLES)).min(1, 'Choose at least one table'),
    engagementName: closureOptionsSchema.shape.engagementName,
    customerContact: closureOptionsSchema.shape.customerContact,
    notes: closureOptionsSchema.shape.notes,
  });
export type WizardValues = z.infer<ReturnType<typeof wizardSchema>>;

export const DEFAULTS: WizardValues = {
  token: '',
  organizationId: '',
  accountGroups: [],
  tamDays: 7,
  ahcDays: 31,
  tables: [...AHC_TABLES],
  engagementName: '',
  customerContact: '',
  notes: '',
};

/** The fields each step must have right before Next. */
export const STEP_FIELDS = {
  1: { token: true },
  2: { organizationId: true, accountGroups: true },
  3: { tables: true },
} as const;

/** The report request the wizard's values make for a kind. */
export function reportRequestOf(
  kind: ReportKind,
  valid: WizardValues,
  organization: { value: string; label: string },
  groups: ReportAccountGroup[],
): CreateReportInput {
  const chosen = new Set(valid.accountGroups);
  return {
    kind,
    token: valid.token.trim(),
    organization: { id: organization.value, name: organization.label },
    accountGroups: groups
      .filter((group) => chosen.has(group.aid))
      .map((group) => ({ aid: group.aid, accountGroupName: group.accountGroupName })),
    options:
      kind === 'tam-activity'
        ? { daysRange: valid.tamDays, planner: [] }
        : isClosure(kind)
          ? {
              ...(valid.engagementName ? { engagementName: valid.engagementName } : {}),
              ...(valid.customerContact ? { customerContact: valid.customerContact } : {}),
              ...(valid.notes ? { notes: valid.notes } : {}),
            }
          : kind === 'ahc-ie'
            ? { daysRange: valid.ahcDays, tables: valid.tables }
            : {},
  };
}

/**
 * What a refused request says: an empty selection that reached the server is the spec's own toast; an
 * incomplete request (400) is "missing data" in the spec's words; other failures name the kind, titled
 * with the server's reason. A page may have its own words (the maintenance report's status texts).
 */
export const requestErrors = (kind: ReportKind, failureMessage?: (error: unknown) => string): ErrorToastMeta => ({
  errorMessage: (error) => {
    const refused = error instanceof ApiRequestError ? error : null;
    const text =
      refused?.code === 'no_account_groups'
        ? REPORT_REQUEST_MESSAGES.noAccountGroups
        : failureMessage
          ? failureMessage(error)
          : refused?.status === 400
            ? missingDataMessage(kind)
            : REPORT_TOASTS[kind].failure;
    return { text, ...(refused && !failureMessage ? { title: refused.message } : {}) };
  },
});
