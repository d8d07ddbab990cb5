import type { AccountGroup, Agent, AlertRule, Role, Tag, Test } from './model.js';
import type { World } from './world.js';

interface Indexes {
  tests?: Map<string, Test>;
  testsByGroup?: Map<string, Test[]>;
  testsByAgent?: Map<string, Test[]>;
  agents?: Map<string, Agent>;
  alertRules?: Map<string, AlertRule>;
  accountGroups?: Map<string, AccountGroup>;
  roles?: Map<string, Role>;
  tagsByTest?: Map<string, Tag[]>;
}

const NONE: never[] = [];

function byId<T>(records: T[], id: (record: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  // The first of two with one id wins, as `find` over the list would.
  for (const record of records) if (!map.has(id(record))) map.set(id(record), record);
  return map;
}

function grouped<T>(records: T[], keys: (record: T) => Iterable<string>): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const record of records)
    for (const key of new Set(keys(record))) {
      const list = map.get(key);
      if (list) list.push(record);
      else map.set(key, [record]);
    }
  return map;
}

/**
 * The world's records by id and by account group, so that one call reads what it names, not the whole world
 * (ten copies of the large world hold 100,000 tests: a scan per call made the sandbox, not the product, the
 * bottleneck of the benchmarks). Built on first use and dropped at every change: `changed()` is called for every
 * request that may write (anything but a read) and by the state's own changes, and a list the lookups were made of
 * that was replaced, or grew or shrank, drops them too (a test that edits the world directly). The world's records
 * are found in the same order as a scan of its lists would find them.
 */
export class WorldLookup {
  private indexes: Indexes = {};
  private world: World | undefined;
  private version = 0;
  private builtAt = -1;

  constructor(private readonly current: () => World) {}

  /** The world changed (or may have): every index is built again on its next use. */
  changed(): void {
    this.version += 1;
  }

  /** The lists the indexes are made of, and their lengths, when they were made. */
  private sources: { list: unknown[]; length: number }[] = [];

  private get fresh(): { world: World; indexes: Indexes } {
    const world = this.current();
    // A list replaced or grown or shrunk in place (a test edits the world directly) also makes them stale.
    const lists = [world.tests, world.agents, world.alertRules, world.accountGroups, world.roles, world.tags];
    const edited = lists.some(
      (list, index) => this.sources[index]?.list !== list || this.sources[index]?.length !== list.length,
    );
    if (world !== this.world || this.builtAt !== this.version || edited) {
      this.world = world;
      this.builtAt = this.version;
      this.indexes = {};
      this.sources = lists.map((list) => ({ list, length: list.length }));
    }
    return { world, indexes: this.indexes };
  }

  test(testId: string): Test | undefined {
    const { world, indexes } = this.fresh;
    return (indexes.tests ??= byId(world.tests, (test) => test.testId)).get(testId);
  }

  /** An account group's tests, in the world's order. */
  testsOf(aid: string): Test[] {
    const { world, indexes } = this.fresh;
    return (indexes.testsByGroup ??= grouped(world.tests, (test) => [test.aid])).get(aid) ?? NONE;
  }

  /** The tests an agent runs, in the world's order. */
  testsOfAgent(agentId: string): Test[] {
    const { world, indexes } = this.fresh;
    return (indexes.testsByAgent ??= grouped(world.tests, (test) => test.agentIds)).get(agentId) ?? NONE;
  }

  agent(agentId: string): Agent | undefined {
    const { world, indexes } = this.fresh;
    return (indexes.agents ??= byId(world.agents, (agent) => agent.agentId)).get(agentId);
  }

  alertRule(ruleId: string): AlertRule | undefined {
    const { world, indexes } = this.fresh;
    return (indexes.alertRules ??= byId(world.alertRules, (rule) => rule.ruleId)).get(ruleId);
  }

  accountGroup(aid: string): AccountGroup | undefined {
    const { world, indexes } = this.fresh;
    return (indexes.accountGroups ??= byId(world.accountGroups, (group) => group.aid)).get(aid);
  }

  role(roleId: string): Role | undefined {
    const { world, indexes } = this.fresh;
    return (indexes.roles ??= byId(world.roles, (role) => role.roleId)).get(roleId);
  }

  /** The tags assigned to a test, in the world's order. */
  tagsOfTest(testId: string): Tag[] {
    const { world, indexes } = this.fresh;
    const index = (indexes.tagsByTest ??= grouped(world.tags, (tag) =>
      tag.assignments.map((assignment) => assignment.id),
    ));
    return index.get(testId) ?? NONE;
  }
}
