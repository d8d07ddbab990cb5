import {
  PlatformError,
  type AlertRule,
  type PlatformDashboard,
  type PlatformSession,
  type SuppressionWindow,
} from '@ce/platform-client';
import { AppError } from '../core/errors.js';
import { mapPool } from '../core/map-pool.js';

/** A list read from the platform, or why it could not be read (a 403 names the permission). */
export type Readable<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * A read the token may not be allowed to make: a 403 (or a 404 for an area the organization lacks) becomes
 * the reason, naming the permission, so a report can say what it could not read; every other failure is
 * thrown (and the pipeline retries platform faults).
 */
export async function readable<T>(what: string, permission: string, read: () => Promise<T>): Promise<Readable<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    if (error instanceof PlatformError && (error.status === 403 || error.status === 404))
      return {
        ok: false,
        reason: `The token cannot read ${what}: the platform answered ${error.status === 403 ? '403 Forbidden' : '404 Not Found'} (permission needed: ${permission}).`,
      };
    throw error;
  }
}

/** The value of a read the report cannot do without: a refusal ends the report with its reason. */
export function required<T>(read: Readable<T>): T {
  if (!read.ok) throw new AppError(403, 'platform_forbidden', read.reason);
  return read.value;
}

/** Every item of a paginated read. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Per-item reads of one list run this many at a time: paced by the organization's budget either way. */
export const READ_CONCURRENCY = 8;

/** An account group's dashboards with their widgets: the list usually carries them; one without is read alone. */
export async function dashboardsWithWidgets(
  session: PlatformSession,
  aid: string,
  signal?: AbortSignal,
): Promise<PlatformDashboard[]> {
  const list = await session.dashboards.list(aid, signal);
  return mapPool(list, READ_CONCURRENCY, async (dashboard) =>
    dashboard.widgets ? dashboard : session.dashboards.get(dashboard.dashboardId, aid, signal),
  );
}

/** An account group's alert rules with their detail (tests, notifications): the list, then each rule once. */
export async function rulesWithDetail(
  session: PlatformSession,
  aid: string,
  signal?: AbortSignal,
): Promise<AlertRule[]> {
  const list = await session.alertRules.list(aid, signal);
  return mapPool(list, READ_CONCURRENCY, (rule) => session.alertRules.get(rule.ruleId, aid, signal));
}

/** An account group's alert suppression windows with their detail (tests, schedule): the list, then each once. */
export async function windowsWithDetail(
  session: PlatformSession,
  aid: string,
  signal?: AbortSignal,
): Promise<SuppressionWindow[]> {
  const list = await session.alertSuppressionWindows.list(aid, signal);
  return mapPool(list, READ_CONCURRENCY, (window) =>
    session.alertSuppressionWindows.get(window.alertSuppressionWindowId, aid, signal),
  );
}
