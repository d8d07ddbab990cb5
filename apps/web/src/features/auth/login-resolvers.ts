import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { Resolver } from 'react-hook-form';
import {
  loginInputSchema,
  newPasswordFormSchema,
  passwordResetFormSchema,
  passwordResetRequestSchema,
} from '@ce/contract';

export type LoginMode = 'login' | 'new-password' | 'forgot' | 'reset';

export interface LoginValues {
  email: string;
  password: string;
  code: string;
  newPassword: string;
  confirmPassword: string;
}

/** Each step checks its own fields by the contract's schema (the spec's messages) and lets the others be. */
const free = z.string();
export const LOGIN_RESOLVERS: Record<LoginMode, Resolver<LoginValues>> = {
  login: zodResolver(loginInputSchema.safeExtend({ code: free, newPassword: free, confirmPassword: free })),
  'new-password': zodResolver(newPasswordFormSchema.safeExtend({ email: free, password: free, code: free })),
  forgot: zodResolver(
    passwordResetRequestSchema.safeExtend({ password: free, code: free, newPassword: free, confirmPassword: free }),
  ),
  reset: zodResolver(passwordResetFormSchema.safeExtend({ password: free })),
};
