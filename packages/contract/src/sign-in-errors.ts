/**
 * Why a single sign-on did not finish, as the server sends the browser back to `/login?error=<code>`.
 * The sign-in page shows only these fixed texts (anything else gets the fallback), never text from the URL.
 */
export const SIGN_IN_ERROR_MESSAGES = {
  sso_expired: "Couldn't finish OAuth flow: the sign-in took too long or came from another browser. Try again.",
  sso_failed: "Couldn't finish OAuth flow, check your User Pool HostedUI settings.",
  sso_unavailable: 'The sign-in provider cannot be reached. Try again later.',
  sso_no_email: 'The sign-in provider did not share an email address.',
  sso_email_unverified: 'The sign-in provider has not verified this email address.',
  sso_account_exists:
    'An account with this email signs in with a password. Ask a Super User to allow single sign-on for it.',
  sso_other_identity: 'This email belongs to another sign-in identity.',
  account_disabled: 'This account is disabled. Ask a Super User to enable it.',
} as const;
export type SignInErrorCode = keyof typeof SIGN_IN_ERROR_MESSAGES;
export const SIGN_IN_ERROR_FALLBACK = 'Single sign-on did not finish. Try again.';

/** The text for a `?error=` code: one of the fixed messages, whatever the URL holds. */
export function signInErrorMessage(code: string | null): string | null {
  if (code === null || code === '') return null;
  return Object.hasOwn(SIGN_IN_ERROR_MESSAGES, code)
    ? SIGN_IN_ERROR_MESSAGES[code as SignInErrorCode]
    : SIGN_IN_ERROR_FALLBACK;
}
