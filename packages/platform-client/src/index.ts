export { PlatformClient, PlatformSession, writableTestBody, type TimeRange } from './client.js';
export { PlatformError, messageForStatus, TIMEOUT_STATUS, type PlatformFieldError } from './errors.js';
export { BUDGET_WAIT_TOLD_EVERY_MS, type AmbientCall, type AnsweredCall, type BudgetWait } from './auth.js';
export {
  PlatformHttp,
  type ReadJournal,
  type PlatformAuth,
  type PlatformHttpOptions,
  type PlatformObserver,
  type CallOptions,
} from './http.js';
export { MAX_ATTEMPTS, DEFAULT_RETRY_BUDGET_MS, backoffMs, readBackoffMs } from './retry-policy.js';
export {
  OrgRateLimiter,
  RateLimiterRegistry,
  realClock,
  BACKGROUND_PRESENT_MS,
  DEFAULT_BACKGROUND_SHARE,
  DEFAULT_SCHEDULED_SHARE,
  scheduledCap,
  shareOf,
  heldFor,
  HELD_UNTIL_END_MS,
  otherShare,
  WINDOW_MS,
  type Clock,
  type Lane,
  type RateSlot,
  type OrgBudget,
  type RateBudgets,
} from './rate-limiter.js';
export { wellFormed, wellFormedJson, wellFormedText } from './well-formed.js';
export { readRateHeaders, FALLBACK_429_WAIT_MS, type RateHeaders } from './rate-headers.js';
export * from './schemas.js';
export * from './alert-schemas.js';
export * from './measurement-schemas.js';
export * from './review-schemas.js';
export type { OutageFilter } from './resources/outages.js';
export { ENDPOINT_SCHEDULED_TYPES, type EndpointScheduledType } from './resources/endpoint.js';
export { apiTestType } from './resources/tests.js';
export { TEST_RESULT_KINDS, type TestResultsOptions } from './resources/test-results.js';
export type { UnitsPeriod } from './resources/usage.js';
