import type { SuppressionWindow } from '@ce/platform-client';
import type { DroppedReference, ResolvedReference } from '../../core/change-sets/change-item.js';
import { mapTests, type RuleTest } from './rule-plan.js';

/** What a suppression window's POST takes (`AlertSuppressionWindowRequest`). */
export interface WindowBody {
  name: string;
  isEnabled: boolean;
  startDate: string;
  duration: number;
  repeat?: Record<string, unknown>;
  endRepeat?: Record<string, unknown>;
  testIds: string[];
}

export interface WindowChange {
  kind: 'suppression-window';
  sourceId: string;
  sourceName: string;
  targetAid: string;
  status: 'create' | 'unchanged' | 'skip';
  after: WindowBody | null;
  resolved: ResolvedReference[];
  dropped: DroppedReference[];
  reason: string | null;
  /** The ids of the target's windows of that name when planned (a crash never adopts one of them). */
  knownIds: string[];
}

export interface WindowTarget {
  aid: string;
  accountGroupName: string;
  tests: RuleTest[];
  windows: SuppressionWindow[];
}

const testIdsOf = (window: SuppressionWindow) => (window.tests ?? []).map((test) => test.testId);

/**
 * The suppression windows that come along with migrated rules: in v7 a window names tests, not rules, so a
 * window comes when it covers a test of a migrated rule. Its tests are mapped by name and type in each
 * target (those missing are dropped; with none left it stays behind); a window of the same name in the
 * target is left as it is.
 */
export function planWindows(
  windows: SuppressionWindow[],
  migratedTestIds: ReadonlySet<string>,
  sourceTests: RuleTest[],
  targets: WindowTarget[],
): WindowChange[] {
  const coming = windows.filter((window) => testIdsOf(window).some((testId) => migratedTestIds.has(testId)));
  return targets.flatMap((target) => {
    const testMapper = mapTests(sourceTests, target);
    return coming.map((window): WindowChange => {
      const base = {
        kind: 'suppression-window' as const,
        sourceId: window.alertSuppressionWindowId,
        sourceName: window.name,
        targetAid: target.aid,
        knownIds: target.windows
          .filter((existing) => existing.name === window.name)
          .map((existing) => existing.alertSuppressionWindowId),
      };
      if (base.knownIds.length)
        return {
          ...base,
          status: 'unchanged',
          after: null,
          resolved: [],
          dropped: [],
          reason: 'A window of this name exists',
        };
      const { testIds, resolved, dropped } = testMapper(testIdsOf(window));
      if (testIds.length === 0)
        return {
          ...base,
          status: 'skip',
          after: null,
          resolved,
          dropped,
          reason: `None of its tests exist in ${target.accountGroupName}`,
        };
      const after: WindowBody = {
        name: window.name,
        isEnabled: window.isEnabled !== false,
        startDate: window.startDate ?? new Date().toISOString(),
        duration: window.duration ?? 3600,
        ...(window.repeat ? { repeat: window.repeat } : {}),
        ...(window.endRepeat ? { endRepeat: window.endRepeat } : {}),
        testIds,
      };
      return { ...base, status: 'create', after, resolved, dropped, reason: null };
    });
  });
}
