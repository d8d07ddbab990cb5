import { z } from 'zod';
import { passwordPolicySchema } from './password-policy.js';
import { ROLES } from './roles.js';

export const loginInputSchema = z.object({
  email: z.string().trim().min(1, 'Username cannot be empty').max(320),
  password: z.string().min(1, 'Password cannot be empty').max(1024),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const roleSchema = z.enum(ROLES);

/** The signed-in user as the browser sees it (spec section 3, User). */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  /**
   * Why a role lives in a field called locale: the original product kept each user's role in its
   * identity pool's `locale` attribute (spec section 6), and single sign-on providers still send it in that
   * claim. `role` is what it means (roleFromLocale); the raw value is kept because AHC-IE reads it.
   */
  locale: z.string().nullable(),
  role: roleSchema,
  /** Set when the caller is a script using one of the user's personal API tokens. */
  apiToken: z.object({ id: z.string(), name: z.string(), capabilities: z.array(z.string()) }).optional(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/**
 * Signing out (everywhere: every session of the user ends). Personal API tokens are no session and keep working
 * unless `revokeApiTokens` asks for them to be revoked too (Settings' "Sign out everywhere" offers it).
 */
export const signOutQuerySchema = z.object({
  revokeApiTokens: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export const sessionResponseSchema = z.object({ user: sessionUserSchema });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const appInfoSchema = z.object({
  supportEmail: z.string(),
  demoMode: z.boolean(),
  passwordPolicy: passwordPolicySchema,
  sso: z.object({ enabled: z.boolean(), label: z.string() }),
  passwordResetEnabled: z.boolean(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** An account as an administrator sees it. */
export const userAccountSchema = sessionUserSchema.extend({
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type UserAccount = z.infer<typeof userAccountSchema>;
export const userListResponseSchema = z.object({ users: z.array(userAccountSchema) });
