import type { FastifyBaseLogger } from 'fastify';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import type { CallAudit } from '../../core/call-audit.js';
import { attributeLine, auditKind, auditUser, CLOCK_SKEW_MS, type AuditWrite } from './change-attribution.js';
import type { ChangeJournalRepository } from './watch-change-journal.repository.js';
import type { DriftLine } from './watch-changes.js';

/** The run a drift is attributed for: its organization, account groups and id (its calls are audited with it). */
export interface AttributedRun {
  id: string;
  organizationId: string;
  accountGroups: { aid: string; accountGroupName: string }[];
}

const platformDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Says who made each change of a watch run's drift: reads our journal of the organization and the platform's audit
 * log (one paced call with the watch's token, background work audited with the run) over the time between the two
 * backups, then matches each line (change-attribution.ts). A token that may not read the audit log, or a log that
 * does not answer, leaves the customer's side unknown: the drift is said all the same.
 */
export class DriftAttribution {
  constructor(
    private readonly deps: {
      journal: ChangeJournalRepository;
      platform: PlatformClient;
      callAudit: CallAudit;
      logger: FastifyBaseLogger;
    },
  ) {}

  async attribute(
    run: AttributedRun,
    window: { since: Date; until: Date },
    token: string,
    signal: AbortSignal,
    lines: DriftLine[],
  ): Promise<DriftLine[]> {
    if (lines.length === 0) return lines;
    const wide = {
      since: new Date(window.since.getTime() - CLOCK_SKEW_MS),
      until: new Date(window.until.getTime() + CLOCK_SKEW_MS),
    };
    const [journal, audit] = await Promise.all([
      this.deps.journal.writes(run.organizationId, wide.since, wide.until),
      this.auditLog(run, wide, token, signal),
    ]);
    return lines.map((line) => ({ ...line, by: attributeLine(line, journal, audit, window) }));
  }

  /** The platform's audit log of the organization's account groups the run covers, in the window. */
  private async auditLog(
    run: AttributedRun,
    window: { since: Date; until: Date },
    token: string,
    signal: AbortSignal,
  ): Promise<AuditWrite[]> {
    const names = new Map(run.accountGroups.map((group) => [group.aid, group.accountGroupName]));
    const session = this.deps.platform.as({
      token,
      organizationId: run.organizationId,
      lane: 'scheduled',
      signal,
      onAnswer: this.deps.callAudit.observer(run.id),
    });
    const events: AuditWrite[] = [];
    try {
      for await (const event of session.auditUserEvents.list({
        aid: run.accountGroups[0]?.aid,
        range: { startDate: platformDate(window.since), endDate: platformDate(window.until) },
        useAllPermittedAids: true,
        signal,
      })) {
        const accountGroupName = names.get(event.aid ?? '');
        const at = new Date(event.date);
        if (!accountGroupName || Number.isNaN(at.getTime())) continue;
        events.push({
          accountGroupName,
          kinds: auditKind(event.event),
          names: (event.resources ?? []).flatMap((resource) => (resource.name ? [resource.name] : [])),
          at,
          user: auditUser(event.user),
        });
      }
    } catch (error) {
      signal.throwIfAborted();
      if (!(error instanceof PlatformError)) throw error;
      // Refused (no "View activity log") or failing: the customer's side stays unknown, the drift is still said.
      this.deps.logger.info({ runId: run.id, status: error.status }, 'the audit log was not read for the drift');
      return [];
    }
    return events;
  }
}
