import { z } from 'zod';

/**
 * Ours or theirs (issue 59): who made each change a watch's backups found. Our own journal (change sets, dashboard
 * pushes) says what the toolkit wrote and the platform's audit log what its users wrote, each matched by the
 * object (its account group, kind and name, either name of a renamed one) and the time; neither: unknown. A
 * drift line has no platform id (a backup compares by kind and name), so the name is what both are matched by.
 * Pure: the attribution service reads, this decides and words.
 */

/** Who made a change, as a run keeps it on its drift line. */
export const changeActorSchema = z.discriminatedUnion('by', [
  z.object({
    by: z.literal('us'),
    name: z.string(),
    email: z.string(),
    /** "bulk run", "alerts migration", "restore", "dashboard push". */
    tool: z.string(),
    at: z.string(),
    /** The run's or push's page inside the app. */
    path: z.string().nullable(),
  }),
  z.object({ by: z.literal('customer'), user: z.string(), at: z.string() }),
  z.object({ by: z.literal('unknown') }),
]);
export type ChangeActor = z.infer<typeof changeActorSchema>;

/** One write the toolkit made into the customer's account, from its journal. */
export interface JournalWrite {
  accountGroupName: string;
  /** The kind of object, as backups name them ("test", "alert-rule", "dashboard"). */
  kind: string;
  /** The names it wrote under. */
  names: string[];
  at: Date;
  person: { name: string; email: string };
  tool: string;
  path: string | null;
}

/** One write the platform's audit log records: its account group, the object's kind and names, who, when. */
export interface AuditWrite {
  accountGroupName: string;
  /** The backup kinds its event is about (an "Endpoint test" is any of three); null: none a backup holds. */
  kinds: string[] | null;
  names: string[];
  at: Date;
  /** The user as the log names them: their email address when it gives one. */
  user: string;
}

/** The line of drift attribution looks at. */
export interface AttributedLine {
  accountGroupName: string;
  kind: string;
  name: string;
  previousName?: string;
}

/** Clocks of the platform, the journal and this server may differ by this much. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** An audit event's noun, as the platform words it ("Test deleted.", "Alert rule updated"), to a backup's kind. */
const AUDIT_KINDS: [string, string[]][] = [
  ['alert suppression window', ['suppression-window']],
  ['alert rule', ['alert-rule']],
  ['endpoint label', ['endpoint-label']],
  ['endpoint test', ['endpoint-test', 'endpoint-scheduled-test', 'endpoint-dynamic-test']],
  ['dashboard', ['dashboard']],
  ['test', ['test']],
  ['tag', ['tag']],
];

/** The backup kinds an audit event is about (null: none a backup holds). */
export function auditKind(event: string): string[] | null {
  const text = event.trim().toLowerCase();
  return AUDIT_KINDS.find(([noun]) => text.startsWith(`${noun} `))?.[1] ?? null;
}

/** "Ana Anders (ana@acme.example)" is ana@acme.example; a user the log names otherwise is said as it is. */
export function auditUser(user: string | undefined): string {
  const email = /\(([^()\s]+@[^()\s]+)\)\s*$/.exec(user ?? '')?.[1];
  return email ?? (user?.trim() || 'a user the audit log does not name');
}

const namesOf = (line: AttributedLine) => [line.name, ...(line.previousName ? [line.previousName] : [])];

/** The newest of the entries, or undefined. */
const newest = <T extends { at: Date }>(entries: T[]): T | undefined =>
  entries.reduce<T | undefined>((found, entry) => (!found || entry.at > found.at ? entry : found), undefined);

/**
 * Who made the change of a line, within the window the change happened in (between the two backups, give or take
 * the clocks' skew). Ours when the journal wrote that object then; the customer's when the audit log names it and
 * no write of ours does, or theirs came after ours (our writes are in their log too, as the token's user's).
 */
export function attributeLine(
  line: AttributedLine,
  journal: readonly JournalWrite[],
  audit: readonly AuditWrite[],
  window: { since: Date; until: Date },
): ChangeActor {
  const inWindow = (at: Date) =>
    at.getTime() >= window.since.getTime() - CLOCK_SKEW_MS && at.getTime() <= window.until.getTime() + CLOCK_SKEW_MS;
  const names = namesOf(line);
  const ours = newest(
    journal.filter(
      (write) =>
        write.accountGroupName === line.accountGroupName &&
        write.kind === line.kind &&
        inWindow(write.at) &&
        write.names.some((name) => names.includes(name)),
    ),
  );
  const theirs = newest(
    audit.filter(
      (event) =>
        event.accountGroupName === line.accountGroupName &&
        (event.kinds?.includes(line.kind) ?? false) &&
        inWindow(event.at) &&
        event.names.some((name) => names.includes(name)),
    ),
  );
  if (theirs && (!ours || theirs.at.getTime() > ours.at.getTime() + CLOCK_SKEW_MS))
    return { by: 'customer', user: theirs.user, at: theirs.at.toISOString() };
  if (ours)
    return {
      by: 'us',
      name: ours.person.name,
      email: ours.person.email,
      tool: ours.tool,
      at: ours.at.toISOString(),
      path: ours.path,
    };
  return { by: 'unknown' };
}

/** A day as the words say it: "5 Dec". */
const dayWords = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone }).format(new Date(iso));

/**
 * Who made a change, in words: "by us (Taylor TAM, bulk run, 5 Dec)", "by the customer (jane@acme.example, per the
 * platform's audit log)", "by unknown".
 */
export function actorWords(actor: ChangeActor, timeZone = 'UTC'): string {
  if (actor.by === 'us') return `by us (${actor.name}, ${actor.tool}, ${dayWords(actor.at, timeZone)})`;
  if (actor.by === 'customer') return `by the customer (${actor.user}, per the platform's audit log)`;
  return 'by unknown';
}
