/**
 * Failed sign-ins slow down, then lock, per account and per address. The counting is one SQL
 * statement (IdentityRepository.claimAttempt) so every instance, and every parallel attempt, sees the
 * same count; the rules for delays and messages are here.
 */
export interface ThrottlePolicy {
  /** Attempts within the window before a lock. */
  maxFailures: number;
  windowMs: number;
  lockMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export function lockedFor(lockedUntil: Date | null | undefined, now: Date): number {
  if (!lockedUntil) return 0;
  return Math.max(0, lockedUntil.getTime() - now.getTime());
}

/** How long to hold back the answer to a failed attempt: doubling from the base, up to the cap. */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures <= 1) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 2));
}

const minutesOf = (remainingMs: number) => {
  const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

export function lockMessage(remainingMs: number): string {
  return `Too many failed sign-in attempts. Try again in ${minutesOf(remainingMs)}.`;
}

export function resetRequestLockMessage(remainingMs: number): string {
  return `Too many code requests for this account or address. Try again in ${minutesOf(remainingMs)}.`;
}
