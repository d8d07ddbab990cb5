import type { PersonChanges } from '@ce/contract';
import type { AuditEvent, PlatformSession, TestVersion } from '@ce/platform-client';
import { mapPool } from '../../../../core/map-pool.js';
import { READ_CONCURRENCY, readable, type Readable } from '../../../../report-kit/platform-reads.js';
import type { HealthTest } from './checks/input.js';

/** The permissions who-changed-what needs, as the v7 document names them. */
export const CHANGES_PERMISSIONS = {
  audit: 'View activity log',
  history: 'View tests',
} as const;

/** A person's changes summed over the groups read: what `PersonChanges` is made of. */
interface PersonTally {
  events: number;
  testVersions: number;
  what: Map<string, number>;
  lastAt: string;
}

/** What the report names as what they changed: at most this many kinds of event. */
const WHAT_SHOWN = 5;

/**
 * The person as the platform names them: the email of "Ana Anders (ana@acme.example)" (the audit log's form and
 * the history's), or the name as given (an API integration); one person whichever way the two lists spell them.
 */
export function personOf(user: string | undefined): string {
  const email = /\(([^()\s]+@[^()\s]+)\)\s*$/.exec(user ?? '')?.[1];
  return (email ?? user?.trim()) || 'someone the platform does not name';
}

/** A change, not a sign-in or a read ("Login", "Report viewed"): the event's verb says it. */
const CHANGE_VERB = /\b(created|updated|deleted|assigned|unassigned|invited|enabled|disabled|removed|added|changed)\b/i;
export const isChange = (event: Pick<AuditEvent, 'event'>) => CHANGE_VERB.test(event.event);

/** The event's words without the platform's full stop ("Test updated." and "Test updated" are one). */
const eventWords = (event: string) => event.trim().replace(/\.$/, '');

/** Who changed what, summed as the audit log and the tests' histories stream in (memory is the people). */
export class ChangesTally {
  private readonly people = new Map<string, PersonTally>();

  private person(name: string): PersonTally {
    let person = this.people.get(name);
    if (!person) {
      person = { events: 0, testVersions: 0, what: new Map(), lastAt: '' };
      this.people.set(name, person);
    }
    return person;
  }

  private seen(person: PersonTally, at: string): void {
    if (at > person.lastAt) person.lastAt = at;
  }

  addEvent(event: AuditEvent): void {
    const person = this.person(personOf(event.user));
    const words = eventWords(event.event);
    person.events += 1;
    person.what.set(words, (person.what.get(words) ?? 0) + 1);
    this.seen(person, event.date);
  }

  addVersion(version: TestVersion): void {
    const person = this.person(personOf(version.createdBy));
    person.testVersions += 1;
    this.seen(person, version.versionTimestamp);
  }

  merge(other: ChangesTally): void {
    for (const [name, theirs] of other.people) {
      const person = this.person(name);
      person.events += theirs.events;
      person.testVersions += theirs.testVersions;
      for (const [words, count] of theirs.what) person.what.set(words, (person.what.get(words) ?? 0) + count);
      this.seen(person, theirs.lastAt);
    }
  }

  /**
   * By person, the most changes first. `throughToolkit` stays 0: the toolkit's change journal is the server's, and
   * the report reads only the platform (a watch's attribution tells ours from theirs).
   */
  changes(): PersonChanges[] {
    return [...this.people]
      .map(([person, tally]) => ({
        person,
        events: tally.events,
        testVersions: tally.testVersions,
        what: [...tally.what]
          .map(([event, count]) => ({ event, count }))
          .sort((a, b) => b.count - a.count || a.event.localeCompare(b.event))
          .slice(0, WHAT_SHOWN),
        throughToolkit: 0,
        lastAt: tally.lastAt,
      }))
      .sort(
        (a, b) =>
          b.events + b.testVersions - (a.events + a.testVersions) ||
          b.lastAt.localeCompare(a.lastAt) ||
          a.person.localeCompare(b.person),
      );
  }
}

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** A test's history names at most this many versions (the document's maximum): one call for the whole window. */
const HISTORY_LIMIT = 500;

/**
 * One account group's changes in the window: its audit log (paged, once), then the versions of the tests its
 * change events name, each test's history read once; a test no event names is not read.
 */
export async function readChanges(
  session: PlatformSession,
  aid: string,
  accountGroup: string,
  tests: Readable<HealthTest[]>,
  window: { from: number; to: number },
  signal?: AbortSignal,
): Promise<Readable<ChangesTally>> {
  if (!tests.ok) return tests;
  const tally = new ChangesTally();
  const audit = await readable(`the activity log of ${accountGroup}`, CHANGES_PERMISSIONS.audit, async () => {
    const named = new Set<string>();
    for await (const event of session.auditUserEvents.list({
      aid,
      range: { startDate: iso(window.from), endDate: iso(window.to) },
      signal,
    })) {
      const at = Date.parse(event.date);
      if (!isChange(event) || at < window.from || at > window.to) continue;
      tally.addEvent(event);
      for (const resource of event.resources ?? [])
        if (resource.type === 'test' && resource.name) named.add(resource.name);
    }
    return named;
  });
  if (!audit.ok) return audit;
  const changed = tests.value.filter((test) => audit.value.has(test.testName));
  const histories = await readable(`the test versions of ${accountGroup}`, CHANGES_PERMISSIONS.history, () =>
    mapPool(changed, READ_CONCURRENCY, async (test) => {
      for (const version of await session.tests.history(test.testId, { aid, limit: HISTORY_LIMIT, signal })) {
        const at = Date.parse(version.versionTimestamp);
        if (at >= window.from && at <= window.to) tally.addVersion(version);
      }
    }),
  );
  return histories.ok ? { ok: true, value: tally } : histories;
}

/** The groups' changes summed by person, or the first refusal. */
export function joinedChanges(reads: Readable<ChangesTally>[]): Readable<PersonChanges[]> {
  const all = new ChangesTally();
  for (const read of reads) {
    if (!read.ok) return read;
    all.merge(read.value);
  }
  return { ok: true, value: all.changes() };
}
