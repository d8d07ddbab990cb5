import { describe, expect, it } from 'vitest';
import { changePasswordFormSchema, newPasswordFormSchema, passwordResetFormSchema } from './identity.js';
import { signInErrorMessage } from './sign-in-errors.js';

describe('signInErrorMessage', () => {
  it('shows a fixed message for each known code and the fallback for anything else, never the URL text', () => {
    expect(signInErrorMessage('sso_email_unverified')).toBe(
      'The sign-in provider has not verified this email address.',
    );
    expect(signInErrorMessage('<script>alert(1)</script>')).toBe('Single sign-on did not finish. Try again.');
    expect(signInErrorMessage('toString')).toBe('Single sign-on did not finish. Try again.');
    expect(signInErrorMessage(null)).toBeNull();
  });
});

describe('the new-password forms', () => {
  const messages = (result: { error?: { issues: { message: string }[] } }) =>
    result.error?.issues.map((issue) => issue.message) ?? [];

  it('say the spec messages: both filled, then equal', () => {
    expect(messages(newPasswordFormSchema.safeParse({ newPassword: '', confirmPassword: 'x' }))).toEqual([
      'Password cannot be empty',
    ]);
    expect(
      messages(newPasswordFormSchema.safeParse({ newPassword: 'Abc-12345', confirmPassword: 'Abc-12346' })),
    ).toEqual(['Passwords do not match']);
    expect(newPasswordFormSchema.safeParse({ newPassword: 'Abc-12345', confirmPassword: 'Abc-12345' }).success).toBe(
      true,
    );
  });

  it('check the other fields first, in the order they are shown', () => {
    expect(
      messages(passwordResetFormSchema.safeParse({ email: ' ', code: '', newPassword: 'a', confirmPassword: 'b' })),
    ).toEqual(['Username cannot be empty', 'Confirmation code cannot be empty', 'Passwords do not match']);
    expect(
      messages(changePasswordFormSchema.safeParse({ oldPassword: '', newPassword: 'a', confirmPassword: 'a' })),
    ).toEqual(['Password cannot be empty']);
  });
});
