import type { BulkAccountGroup } from '@ce/contract';
import { PlatformError, type PlatformSession } from '@ce/platform-client';
import { platformFailure } from '../../core/change-sets/handlers.js';
import { mapPool } from '../../core/map-pool.js';
import { toBulkAgent, type GroupInventory } from './bulk-plan.js';

/** The tests and agents of each group, read with a few calls at a time (the limiter paces them). */
export async function inventory(
  session: PlatformSession,
  groups: BulkAccountGroup[],
  parts: { tests: boolean; agents: boolean },
): Promise<GroupInventory[]> {
  return mapPool(groups, 4, async (group) => {
    try {
      const [tests, agents] = await Promise.all([
        parts.tests ? session.tests.list(group.aid) : [],
        parts.agents ? session.agents.list({ aid: group.aid }) : [],
      ]);
      return {
        group,
        tests: tests.map((test) => ({ testId: test.testId, testName: test.testName, type: test.type })),
        agents: agents.map(toBulkAgent),
        error: null,
      };
    } catch (error) {
      if (error instanceof PlatformError && error.status === 401) throw error;
      return { group, tests: [], agents: [], error: platformFailure(error, 'Failed to load the account group') };
    }
  });
}
