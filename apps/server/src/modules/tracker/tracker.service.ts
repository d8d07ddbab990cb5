import { createHash, randomUUID } from 'node:crypto';
import {
  can,
  submitterOf,
  TRACKER_LIMITS,
  TRACKER_MESSAGES,
  UNKNOWN_ENGAGEMENT,
  type CreateTasksResponse,
  type ParseResponse,
  type SessionUser,
  type TaskResult,
  type TrackerRow,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';
import type { ExclusiveLocks } from '../../core/exclusive-locks.js';
import {
  SalesforceError,
  soqlString,
  type SalesforceClient,
  type SaveResult,
} from '../../adapters/salesforce-client.js';
import type { UsageService } from '../usage/usage.service.js';
import { resultsWorkbook } from './results-file.js';
import type { SheetParser } from './sheet-parser.js';
import { buildTemplate } from './template.js';
import type { TrackerRepository } from './tracker.repository.js';

export interface TrackerDeps {
  parser: SheetParser;
  /** Where "one creation at a time per user" is held, for every instance. */
  locks: ExclusiveLocks;
  crm: SalesforceClient | null;
  repository: TrackerRepository;
  usage: UsageService;
  /** Where engagements live in the CRM, and the Task field holding each row's key. */
  crmNames: { engagementObject: string; engagementField: string; engagementStatusField: string; taskKeyField: string };
}

/** An engagement as the CRM answers it: its record id, and whether it still takes tasks. */
interface Engagement {
  id: string;
  closed: boolean;
}

/** A status the CRM gives a finished engagement ("Closed", "Closed - Won", ...): it takes no new task. */
const isClosed = (status: unknown) => typeof status === 'string' && /^closed\b/i.test(status.trim());

/** A CRM message without the error code in front of it ("FIELD_CUSTOM_VALIDATION_EXCEPTION: ..."). */
const withoutCode = (message: string) => message.replace(/^[A-Z][A-Z0-9_]{2,}:\s*/, '').trim();

/** The CRM's refusal of one record, in its words: its messages without their error codes, each once. */
export function refusalWords(errors: SaveResult['errors']): string {
  const words = [...new Set(errors.map((error) => withoutCode(error.message)).filter(Boolean))];
  return words.length > 0 ? TRACKER_MESSAGES.crmRefused(words.join('; ')) : 'Salesforce did not create the task';
}

/** Values per SOQL IN list: well under the 100,000-character query limit. */
const QUERY_BATCH = 200;
const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));
const today = () => new Date().toISOString().slice(0, 10);
/** A creation's lock frees itself after this long if its instance dies holding it. */
const CREATION_LOCK_MS = 15 * 60_000;

/**
 * A row's stable key: who submitted it (the email's part before the at-sign), its engagement, date, hours and
 * work. The same row uploaded again has the same key, and the CRM already holds a task with it.
 */
export function rowKey(submitter: string, row: TrackerRow): string {
  return createHash('sha256')
    .update(JSON.stringify([submitter, row.Engagement_ID, row.due_date, row.hours_spent, row.work_performed]))
    .digest('hex')
    .slice(0, 40);
}

/**
 * The time tracker: reads a spreadsheet of hours (on the parser's thread), and turns the rows a user keeps
 * into Salesforce tasks against their engagements, once each, with a results file.
 */
export class TrackerService {
  private template: Promise<Buffer> | null = null;

  constructor(private readonly deps: TrackerDeps) {}

  /**
   * Reads the sheet, then asks the CRM which of its engagements are closed, so they are flagged before any task is
   * asked for. A CRM that cannot answer leaves the rows as read, with a warning: creating says it row by row.
   */
  async parse(user: SessionUser, bytes: Buffer, weekStart: string): Promise<ParseResponse> {
    const sheet = await this.deps.parser.parse(bytes, weekStart, today(), user.id);
    const crm = this.deps.crm;
    const ids = [...new Set(sheet.data.map((row) => row.Engagement_ID).filter((id) => id !== UNKNOWN_ENGAGEMENT))];
    if (!crm || ids.length === 0) return { ...sheet, closedEngagements: [] };
    try {
      const engagements = await this.engagements(crm, ids);
      const closed = ids.filter((id) => engagements.get(id)?.closed);
      return {
        data: sheet.data,
        warnings: [...closed.map(TRACKER_MESSAGES.closedEngagement), ...sheet.warnings],
        closedEngagements: closed,
      };
    } catch (error) {
      if (!(error instanceof SalesforceError)) throw error;
      return { ...sheet, warnings: [TRACKER_MESSAGES.statusUnchecked, ...sheet.warnings], closedEngagements: [] };
    }
  }

  /** The engagements of these ids the CRM holds, by id: one SOQL query per 200 ids, their status with them. */
  private async engagements(crm: SalesforceClient, ids: string[]): Promise<Map<string, Engagement>> {
    const { engagementObject, engagementField, engagementStatusField } = this.deps.crmNames;
    const engagements = new Map<string, Engagement>();
    for (const batch of chunks(ids, QUERY_BATCH)) {
      const found = await crm.query<Record<string, unknown>>(
        `SELECT Id, ${engagementField}, ${engagementStatusField} FROM ${engagementObject} WHERE ${engagementField} IN (${batch.map(soqlString).join(', ')})`,
      );
      for (const record of found) {
        const id = record[engagementField];
        if (typeof id === 'string' && id)
          engagements.set(id, { id: String(record.Id ?? ''), closed: isClosed(record[engagementStatusField]) });
      }
    }
    return engagements;
  }

  templateFile(): Promise<Buffer> {
    if (!this.template) {
      const built = buildTemplate();
      // A failed build is not kept: the next download tries again.
      built.catch(() => {
        if (this.template === built) this.template = null;
      });
      this.template = built;
    }
    return this.template;
  }

  async createTasks(
    user: SessionUser,
    weekStart: string,
    fileName: string,
    rows: TrackerRow[],
  ): Promise<CreateTasksResponse> {
    const crm = this.deps.crm;
    if (!crm) throw new AppError(503, 'crm_not_configured', 'No Salesforce connection is configured on this server.');
    // One creation at a time per user (spec section 5), whichever instance each request reaches.
    const lock = `tracker.create:${user.id}`;
    const holder = randomUUID();
    if (!(await this.deps.locks.acquire(lock, holder, CREATION_LOCK_MS)))
      throw new AppError(409, 'request_in_progress', TRACKER_MESSAGES.requestInProgress);
    try {
      return await this.create(crm, user, weekStart, fileName, rows);
    } finally {
      await this.deps.locks.release(lock, holder);
    }
  }

  async resultsFile(user: SessionUser, id: string) {
    const row = await this.deps.repository.results(id, user.id);
    if (!row) throw new AppError(404, 'not_found', 'These results are no longer kept.');
    return row;
  }

  private async create(
    crm: SalesforceClient,
    user: SessionUser,
    weekStart: string,
    fileName: string,
    rows: TrackerRow[],
  ): Promise<CreateTasksResponse> {
    const { taskKeyField } = this.deps.crmNames;
    const submitter = submitterOf(user.email);
    const locale = user.locale ?? '';
    const keys = new Map(rows.map((row) => [row.row, rowKey(submitter, row)]));
    const results = new Map<number, TaskResult>();
    const fail = (row: TrackerRow, error: string) =>
      results.set(row.row, { row: row.row, outcome: 'failed', id: null, error });

    try {
      // 'Processing engagement IDs': one query per 200 engagement ids.
      const engagementIds = [
        ...new Set(rows.map((row) => row.Engagement_ID).filter((id) => id !== UNKNOWN_ENGAGEMENT)),
      ];
      const engagements = await this.engagements(crm, engagementIds);
      // Rows created before (this file uploaded again): the CRM holds a task with the row's key.
      const existing = new Map<string, string>();
      for (const batch of chunks([...new Set(keys.values())], QUERY_BATCH)) {
        const found = await crm.query<Record<string, string>>(
          `SELECT Id, ${taskKeyField} FROM Task WHERE ${taskKeyField} IN (${batch.map(soqlString).join(', ')})`,
        );
        for (const record of found) if (record[taskKeyField]) existing.set(record[taskKeyField], record.Id ?? '');
      }

      const toCreate: { row: TrackerRow; record: Record<string, unknown> }[] = [];
      const seen = new Set<string>();
      for (const row of rows) {
        const key = keys.get(row.row) ?? '';
        const already = existing.get(key);
        if (already !== undefined || seen.has(key)) {
          results.set(row.row, { row: row.row, outcome: 'duplicate', id: already ?? null, error: null });
          continue;
        }
        seen.add(key);
        if (row.Engagement_ID === UNKNOWN_ENGAGEMENT) {
          fail(row, 'The row has no Engagement_ID');
          continue;
        }
        const engagement = engagements.get(row.Engagement_ID);
        if (!engagement) {
          fail(row, `Engagement ${row.Engagement_ID} was not found in Salesforce`);
          continue;
        }
        // Not sent: the CRM would refuse it, in its own code.
        if (engagement.closed) {
          fail(row, TRACKER_MESSAGES.closedEngagementRow(row.Engagement_ID));
          continue;
        }
        toCreate.push({ row, record: taskRecord(row, engagement.id, submitter, locale, taskKeyField, key) });
      }

      for (const batch of chunks(toCreate, TRACKER_LIMITS.crmBatch)) {
        try {
          const saved = await crm.createMany(
            'Task',
            batch.map((item) => item.record),
          );
          batch.forEach((item, index) => {
            const result = saved[index];
            if (result?.success && result.id)
              results.set(item.row.row, { row: item.row.row, outcome: 'created', id: result.id, error: null });
            else fail(item.row, refusalWords(result?.errors ?? []));
          });
        } catch (error) {
          if (!(error instanceof SalesforceError)) throw error;
          for (const item of batch) fail(item.row, TRACKER_MESSAGES.crmRefused(withoutCode(error.message)));
        }
      }
    } catch (error) {
      if (error instanceof SalesforceError) throw new AppError(502, 'crm_error', error.message);
      throw error;
    }

    const ordered = rows.map(
      (row) => results.get(row.row) ?? { row: row.row, outcome: 'failed' as const, id: null, error: 'Not processed' },
    );
    const created = ordered.filter((result) => result.outcome === 'created');
    const failed = ordered.filter((result) => result.outcome === 'failed');
    const hours = rows
      .filter((row) => results.get(row.row)?.outcome === 'created')
      .reduce((sum, row) => sum + row.hours_spent, 0);
    await this.deps.repository.recordHours(
      rows.flatMap((row) => {
        const result = results.get(row.row);
        return result?.outcome === 'created'
          ? [
              {
                userId: user.id,
                engagementId: row.Engagement_ID,
                workDate: row.due_date,
                hours: row.hours_spent,
                taskId: result.id,
              },
            ]
          : [];
      }),
    );
    if (created.length > 0)
      await this.deps.usage.record({
        tool: 'hours-logged',
        userId: user.id,
        team: can(user.role, 'proServHours') ? 'PS' : 'TAM',
        quantity: hours,
      });
    const resultsFileId = await this.deps.repository.saveResults({
      userId: user.id,
      filename: `${
        fileName
          .replace(/\.[^.]*$/, '')
          .replace(/[^\w.-]+/g, '_')
          .slice(0, 80) || 'hours'
      }-results-${weekStart}.xlsx`,
      content: await resultsWorkbook(rows, ordered),
      created: created.length,
      failed: failed.length,
      duplicates: ordered.length - created.length - failed.length,
    });
    return {
      counter: created.length,
      messages: failed.map((result) => `Row ${result.row}: ${result.error ?? 'failed'}`),
      results: ordered,
      resultsFileId,
    };
  }
}

/** A Salesforce Task for one row, related to its engagement and carrying the row's key. */
function taskRecord(
  row: TrackerRow,
  whatId: string,
  submitter: string,
  locale: string,
  keyField: string,
  key: string,
): Record<string, unknown> {
  const summary = row.work_performed.split('\n')[0] ?? '';
  return {
    Subject: (summary ? `${row.task_type}: ${summary}` : row.task_type).slice(0, 255),
    ActivityDate: row.due_date,
    Status: 'Completed',
    Priority: 'Normal',
    WhatId: whatId,
    Description: [
      row.work_performed,
      '',
      `Hours: ${row.hours_spent}`,
      row.external_reference ? `External reference: ${row.external_reference}` : '',
      `Submitted by ${submitter}${locale ? ` (${locale})` : ''} with the CE Toolkit time tracker`,
    ]
      .filter((line, index) => line !== '' || index === 1)
      .join('\n'),
    [keyField]: key,
  };
}
