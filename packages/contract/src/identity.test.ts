import { describe, expect, it } from 'vitest';
import { signInErrorMessage } from './identity.js';

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
