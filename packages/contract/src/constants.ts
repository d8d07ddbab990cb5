/** Business constants of spec section 9. */

export const TOAST_TIMEOUT_MS = {
  success: 5673,
  error: 4563,
  info: 4842,
  warning: 3963,
  default: 3765,
} as const;

export type ToastType = keyof typeof TOAST_TIMEOUT_MS;

export const LOGOUT_TOAST_MS = 3000;
export const LOGOUT_TOAST_MESSAGE = 'Logged out from all applications';
/** The shell's toast when the signed-in user cannot be read (spec section 8). */
export const USER_INFO_FAILED_MESSAGE = 'Error getting user information';

export const DESKTOP_BREAKPOINT_PX = 768;

/** The original product's provisioned-tests figure, added to the tests created through the toolkit. */
export const PROVISIONED_TESTS_BASELINE = 8589;

export const TEST_TYPES = ['http-server', 'page-load', 'dns-server', 'dns-trace', 'agent-to-server', 'bgp'] as const;
export type TestType = (typeof TEST_TYPES)[number];

export const TEST_INTERVALS = [
  { seconds: 60, label: '1 minute' },
  { seconds: 120, label: '2 minutes' },
  { seconds: 300, label: '5 minutes' },
  { seconds: 600, label: '10 minutes' },
  { seconds: 900, label: '15 minutes' },
  { seconds: 1800, label: '30 minutes' },
  { seconds: 3600, label: '1 hour' },
] as const;

export const DEFAULT_TEST_INTERVAL = 300;
export const DEFAULT_PORT = 80;

/** Name of the anti-forgery cookie and the header that must echo it on every state-changing request. */
export const CSRF_COOKIE = 'ce_csrf';
export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_COOKIE = 'ce_session';

/** Recent tokens kept in the browser (spec section 9): at most 5, 3 offered as chips, last 8 characters shown. */
export const RECENT_TOKENS = { max: 5, chips: 3, visibleChars: 8 } as const;
