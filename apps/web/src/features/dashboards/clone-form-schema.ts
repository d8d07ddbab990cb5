import { z } from 'zod';
import { cloneDashboardFieldsSchema, DASHBOARD_LIMITS, DASHBOARD_MESSAGES } from '@ce/contract';

/**
 * A screenshot as the form holds it: required, an image by the browser's reading, at most 5 MB. The
 * server checks the bytes again (a text file named .png passes here and is refused there).
 */
const screenshotSchema = (position: number) =>
  z.custom<File | null>().superRefine((file, context) => {
    if (!file) context.addIssue({ code: 'custom', message: DASHBOARD_MESSAGES.screenshotRequired(position) });
    else if (!file.type.startsWith('image/'))
      context.addIssue({ code: 'custom', message: DASHBOARD_MESSAGES.notAnImage });
    else if (file.size > DASHBOARD_LIMITS.screenshotBytes)
      context.addIssue({ code: 'custom', message: DASHBOARD_MESSAGES.tooLarge });
  });

/** The clone form: the request's fields (the contract's rules and messages) and the three screenshots. */
export const cloneFormSchema = cloneDashboardFieldsSchema.extend({
  screenshot1: screenshotSchema(1),
  screenshot2: screenshotSchema(2),
  screenshot3: screenshotSchema(3),
});
export type CloneFormValues = z.input<typeof cloneFormSchema>;

export const SCREENSHOT_FIELDS = ['screenshot1', 'screenshot2', 'screenshot3'] as const;

export const EMPTY_CLONE_FORM: CloneFormValues = {
  token: '',
  organizationId: '',
  aid: '',
  dashboardId: '',
  description: '',
  screenshot1: null,
  screenshot2: null,
  screenshot3: null,
};

/** The live counter under the description (spec section 2). */
export const descriptionCounter = (text: string) =>
  `${text.trim().length}/${DASHBOARD_LIMITS.descriptionMin} characters minimum`;
