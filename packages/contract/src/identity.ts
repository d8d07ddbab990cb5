import { z } from 'zod';
import { roleSchema, sessionUserSchema, userAccountSchema } from './auth.js';

/** The sign-in answer: a session, or one more step before it (spec section 4). */
export const signInResponseSchema = z.union([
  z.object({ user: sessionUserSchema }),
  z.object({
    challenge: z.literal('NEW_PASSWORD_REQUIRED'),
    /** Secret naming this sign-in attempt; valid three minutes. */
    session: z.string(),
  }),
]);
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const newPasswordInputSchema = z.object({
  session: z.string().min(1).max(200),
  newPassword: z.string().min(1, 'Password cannot be empty').max(1024),
});

export const passwordResetRequestSchema = z.object({
  email: z.string().trim().min(1, 'Username cannot be empty').max(320),
});

export const passwordResetConfirmSchema = z.object({
  email: z.string().trim().min(1, 'Username cannot be empty').max(320),
  code: z.string().trim().min(1, 'Confirmation code cannot be empty').max(40),
  newPassword: z.string().min(1, 'Password cannot be empty').max(1024),
});

export const changePasswordInputSchema = z.object({
  oldPassword: z.string().min(1, 'Password cannot be empty').max(1024),
  newPassword: z.string().min(1, 'Password cannot be empty').max(1024),
});

/**
 * The forms that ask for a new password twice (spec section 5): both filled, else 'Password cannot be
 * empty'; equal, else 'Passwords do not match'. The confirmation never leaves the browser.
 */
const newPasswordPair = { newPassword: z.string().max(1024), confirmPassword: z.string().max(1024) };
function checkNewPasswords(value: { newPassword: string; confirmPassword: string }, context: z.RefinementCtx) {
  if (value.newPassword === '' || value.confirmPassword === '')
    context.addIssue({
      code: 'custom',
      path: [value.newPassword === '' ? 'newPassword' : 'confirmPassword'],
      message: 'Password cannot be empty',
    });
  else if (value.newPassword !== value.confirmPassword)
    context.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
}

/** The new password a temporary password requires at first sign-in. */
export const newPasswordFormSchema = z.object(newPasswordPair).superRefine(checkNewPasswords);
/** A reset by mailed code: the account, the code, the new password twice. */
export const passwordResetFormSchema = passwordResetConfirmSchema
  .omit({ newPassword: true })
  .extend(newPasswordPair)
  .superRefine(checkNewPasswords);
/** Settings' change of password: the current one, then the new one twice. */
export const changePasswordFormSchema = changePasswordInputSchema
  .omit({ newPassword: true })
  .extend(newPasswordPair)
  .superRefine(checkNewPasswords);

export const messageResponseSchema = z.object({ message: z.string() });

export const accountSessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  ipAddress: z.string().nullable(),
  method: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsResponseSchema = z.object({ sessions: z.array(accountSessionSchema) });

export const inviteUserInputSchema = z.object({
  email: z.email('Enter a valid email address').max(320),
  role: roleSchema,
  name: z.string().trim().max(200).optional(),
});
export type InviteUserInput = z.infer<typeof inviteUserInputSchema>;
export const inviteUserResponseSchema = z.object({ user: userAccountSchema, temporaryPassword: z.string() });

export const updateUserInputSchema = z
  .object({ role: roleSchema.optional(), disabled: z.boolean().optional() })
  .refine((value) => value.role !== undefined || value.disabled !== undefined, 'Nothing to change');
export type UpdateUserInput = z.infer<typeof updateUserInputSchema>;
export const userResponseSchema = z.object({ user: userAccountSchema });

export const auditEntrySchema = z.object({
  id: z.number(),
  actorEmail: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogResponseSchema = z.object({ entries: z.array(auditEntrySchema) });

export const signOutResponseSchema = z.object({
  endedSessions: z.number().int(),
  /** How many of the user's personal API tokens were revoked with the sessions (when asked: `revokeApiTokens`). */
  revokedApiTokens: z.number().int(),
  /** Where to send the browser to end the identity provider's session too (SSO sign-ins). */
  providerLogoutUrl: z.string().optional(),
});
export type SignOutResponse = z.infer<typeof signOutResponseSchema>;
