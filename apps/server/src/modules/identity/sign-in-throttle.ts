/**
 * Failed sign-ins slow down, then lock, per account and per address. Pure rules here; the state
 * lives in the sign_in_throttle table so every instance sees the same counts.
 */
export interface ThrottleState {
  failures: number;
  firstFailureAt: Date;
  lockedUntil: Date | null;
}

export interface ThrottlePolicy {
  /** Failures within the window before a lock. */
  maxFailures: number;
  windowMs: number;
  lockMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export function lockedFor(state: ThrottleState | undefined, now: Date): number {
  if (!state?.lockedUntil) return 0;
  return Math.max(0, state.lockedUntil.getTime() - now.getTime());
}

/** The state after one more failure: counts restart after the window; the lock starts at the limit. */
export function afterFailure(state: ThrottleState | undefined, now: Date, policy: ThrottlePolicy): ThrottleState {
  const fresh =
    !state ||
    now.getTime() - state.firstFailureAt.getTime() > policy.windowMs ||
    (lockedFor(state, now) === 0 && state.lockedUntil !== null);
  const failures = fresh ? 1 : state.failures + 1;
  return {
    failures,
    firstFailureAt: fresh ? now : state.firstFailureAt,
    lockedUntil: failures >= policy.maxFailures ? new Date(now.getTime() + policy.lockMs) : null,
  };
}

/** How long to hold back the answer to a failed attempt: doubling from the base, up to the cap. */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures <= 1) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 2));
}

export function lockMessage(remainingMs: number): string {
  const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
  return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
