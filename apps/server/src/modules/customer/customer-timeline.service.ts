import {
  statusOutcome,
  TIMELINE_LIMIT,
  userMay,
  type CustomerTimeline,
  type CustomerTimelineQuery,
  type SessionUser,
} from '@ce/contract';
import { forbidden } from '../../core/errors.js';
import { newestFirst, type TimelineSource } from '../../core/timeline.js';
import type { WatchMark } from './customer-overview.repository.js';

const DAY_MS = 86_400_000;

/** Who made an entry a watch's run made: the watch, not its owner by hand. */
export const watchLabel = (trigger: string) =>
  trigger === 'now' ? 'Account Watch run (asked now)' : 'Account Watch run (scheduled)';

/**
 * A customer's page: everything done for one organization through the toolkit (reports, runs, backups, pushes),
 * newest first, read from what each module registered. The caller's own work, or everyone's for those who may see
 * all runs.
 */
export class CustomerTimelineService {
  constructor(
    /** The modules' sources; the list fills while later modules register. */
    private readonly sources: () => readonly TimelineSource[],
    private readonly clock: () => Date = () => new Date(),
    /** The watch run behind each report and backup a watch started (by `tool:id`): its entry is the watch's. */
    private readonly watchMarks?: (reportIds: string[], backupIds: string[]) => Promise<Map<string, WatchMark>>,
  ) {}

  async timeline(user: SessionUser, organizationId: string, query: CustomerTimelineQuery): Promise<CustomerTimeline> {
    if (query.everyone && !userMay(user, 'seeAllRuns'))
      throw forbidden("Only those who may see every run see everyone's work for a customer.");
    const asked = {
      caller: user,
      organizationId,
      userId: query.everyone ? null : user.id,
      ...(query.everyone && query.person ? { personEmail: query.person } : {}),
      since: new Date(this.clock().getTime() - query.days * DAY_MS),
      limit: TIMELINE_LIMIT,
    };
    const sources = this.sources().filter(
      (source) =>
        (!query.tool || source.tools.includes(query.tool)) && (!source.capability || userMay(user, source.capability)),
    );
    const read = (await Promise.all(sources.map((source) => source.timeline(asked)))).flat();
    const entries = newestFirst(
      read.filter((entry) => !query.tool || entry.tool === query.tool),
      TIMELINE_LIMIT,
    );
    const ids = (tool: string) => entries.filter((entry) => entry.tool === tool).map((entry) => entry.id);
    const marks = this.watchMarks
      ? await this.watchMarks(ids('reports'), ids('backups'))
      : new Map<string, WatchMark>();
    const people = new Map(entries.map((entry) => [entry.person.email, entry.person]));
    return {
      organizationId,
      organizationName: entries.find((entry) => entry.organizationName)?.organizationName ?? null,
      entries: entries.map(({ organizationName: _name, outcome, ...entry }) => {
        const mark = marks.get(`${entry.tool}:${entry.id}`);
        return {
          ...entry,
          outcome: outcome ?? statusOutcome(entry.status),
          ...(mark ? { watch: { id: mark.watchId, runId: mark.runId, label: watchLabel(mark.trigger) } } : {}),
        };
      }),
      people: query.everyone ? [...people.values()].sort((a, b) => a.name.localeCompare(b.name)) : [],
    };
  }
}
