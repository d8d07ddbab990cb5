import type { Lane } from './rate-limiter.js';

/**
 * Answers a job already read, kept outside the process (a report's rows in the database), so a job
 * that stopped on a fault resumes where it was instead of reading everything again.
 */
export interface ReadJournal {
  get(key: string): Promise<{ body: unknown } | undefined>;
  put(key: string, body: unknown): Promise<void>;
}

/** Who is calling: the customer's bearer token, and the organization whose budget the call spends. */
export interface PlatformAuth {
  token: string;
  /**
   * The organization id. Without it, the budget is the organization's the client learnt for this token (see
   * `CallOptions.organizationOf`), or, for a token's very first call, one keyed by a hash of the token.
   */
  organizationId?: string;
  /** Who waits on these calls: a person on a page (`interactive`, the default) or a job (`background`). */
  lane?: Lane;
  /** Where GET answers are kept and looked up first (report jobs). */
  journal?: ReadJournal;
  /** Cancels every call of this session (a job that lost its lease); a call's own signal is added to it. */
  signal?: AbortSignal;
  /**
   * Runs once the rate slot is taken, right before each write (any method but GET) is sent: a job checks
   * here that it still holds its lease. What it throws ends the call with nothing sent.
   */
  beforeWrite?: () => Promise<void>;
  /**
   * Told while a call waits for its organization's budget (after half a second, then every half second), and once
   * more when the wait ends: a person on a page is shown how long it will be, and may cancel (`signal`).
   */
  onBudgetWait?: (wait: BudgetWait) => void;
  /**
   * Told of each answer the platform gave this session's calls (a journal's kept answer is no call): a watch's
   * calls are audited with the watch's id. Never told the token.
   */
  onAnswer?: (call: AnsweredCall) => void;
}

/** One call the platform answered: its method, path (no query) and status. */
export interface AnsweredCall {
  method: string;
  path: string;
  status: number;
}

/** A call waiting for a slot in its organization's budget. */
export interface BudgetWait {
  /** `org:<id>`, or `token:<hash>` for a token's first call. */
  organizationKey: string;
  waitedMs: number;
  /** About how long until the budget has room again, when it knows. */
  estimateMs: number | undefined;
  /** The slot came (or the wait was cancelled): nothing to show any more. */
  ended: boolean;
}

/** What the surroundings of a session add to it: the request of a person waiting on a page, for instance. */
export type AmbientCall = Pick<PlatformAuth, 'signal' | 'onBudgetWait'>;

/** Runs the session's `beforeWrite` for a write; a refusal gives the slot back unspent and rethrows. */
export async function checkBeforeWrite(
  auth: PlatformAuth,
  method: string,
  giveBack: () => Promise<void>,
): Promise<void> {
  if (method === 'GET' || !auth.beforeWrite) return;
  try {
    await auth.beforeWrite();
  } catch (error) {
    await giveBack();
    throw error;
  }
}

/** A call's own signal and its session's, either of which cancels it. */
export function joinSignals(own: AbortSignal | undefined, session: AbortSignal | undefined): AbortSignal | undefined {
  if (!own || !session) return own ?? session;
  return AbortSignal.any([own, session]);
}

/** A wait for the budget is told after this long, then as often again, until it ends (the browser asks every second). */
export const BUDGET_WAIT_TOLD_EVERY_MS = 500;

/**
 * Waits for `waiting` (a slot in a budget), telling `report` every half second while it lasts and once when it
 * ends, if it was told at all: a wait shorter than half a second is never mentioned.
 */
export async function toldWhileWaiting<T>(
  waiting: Promise<T>,
  report: ((wait: BudgetWait) => void) | undefined,
  describe: () => Omit<BudgetWait, 'ended'>,
): Promise<T> {
  if (!report) return waiting;
  let told = false;
  const ticker = setInterval(() => {
    told = true;
    report({ ...describe(), ended: false });
  }, BUDGET_WAIT_TOLD_EVERY_MS);
  ticker.unref();
  try {
    return await waiting;
  } finally {
    clearInterval(ticker);
    if (told) report({ ...describe(), ended: true });
  }
}
