import type { PlatformSession } from '@ce/platform-client';
import { referencedIds, type GroupObjects, type Named } from './remap.js';

// What a dashboard's widgets point at in an account group (tests, agents, tags), by name: what a clone stores of
// its source group and what a push finds again in its target group.

/** A tag is known by its key and value: the same pair is the same tag in every account group. */
const tagName = (tag: { key?: string; value?: string; id: string }) =>
  tag.key !== undefined ? `${tag.key}: ${tag.value ?? ''}` : tag.id;

/** A group's tests, agents and tags by name; only the lists the dashboard needs are read. */
export async function groupObjects(
  session: PlatformSession,
  aid: string,
  wanted: Record<keyof GroupObjects, Set<string>>,
): Promise<GroupObjects> {
  const [tests, agents, tags] = await Promise.all([
    wanted.tests.size ? session.tests.list(aid) : [],
    wanted.agents.size ? session.agents.list({ aid }) : [],
    wanted.tags.size ? session.tags.list(aid) : [],
  ]);
  return {
    tests: tests.map((test) => ({ id: test.testId, name: test.testName })),
    agents: agents.map((agent) => ({ id: agent.agentId, name: agent.agentName })),
    tags: tags.map((tag) => ({ id: tag.id, name: tagName(tag) })),
  };
}

/** The names of the tests, agents and tags a dashboard's widgets point at, read from their group. */
export async function namesOf(session: PlatformSession, aid: string, dashboard: Record<string, unknown>) {
  const wanted = referencedIds(dashboard);
  const objects = await groupObjects(session, aid, wanted);
  return {
    tests: objects.tests.filter((item) => wanted.tests.has(item.id)),
    agents: objects.agents.filter((item) => wanted.agents.has(item.id)),
    tags: objects.tags.filter((item) => wanted.tags.has(item.id)),
  };
}

/** The names a clone stored, as the remap reads them. */
export function asGroupObjects(references: Record<string, Named[]>): GroupObjects {
  return { tests: references.tests ?? [], agents: references.agents ?? [], tags: references.tags ?? [] };
}
