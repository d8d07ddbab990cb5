import type { SessionUser } from '@ce/contract';
import type { PlatformSession } from '@ce/platform-client';
import type { Db } from '../../core/database.js';
import type { SourcedEntry, TimelineQuery } from '../../core/timeline.js';
import type { Markdown } from '../../report-kit/markdown.js';

export interface ReportArtifactFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface GeneratedReport {
  /** A short markdown summary for the chat message and the report's page. */
  summaryMarkdown: string;
  artifacts: ReportArtifactFile[];
}

export interface ReportContext {
  platform: PlatformSession;
  organization: { id: string; name: string };
  accountGroups: { aid: string; accountGroupName: string }[];
  options: Record<string, unknown>;
  requestedBy: string;
  now: Date;
  /** Records progress (steps done of total); the browser shows it live. */
  progress(done: number, total: number): Promise<void>;
  /**
   * The file named `filename` of the earlier finished reports of the same kind for the same organization,
   * newest first (a health check compares itself with them).
   */
  history?(filename: string, limit: number): Promise<{ createdAt: Date; content: Buffer }[]>;
  signal?: AbortSignal;
  /** The product's own records, for a kind built from what the toolkit stored (the review pack). */
  stored?: StoredRecords;
  /** The report's row in My Reports at the product's public address, for a message that links to it. */
  reportUrl?: string;
}

/** What a kind built from the toolkit's own records reads them with, as its requester may see them. */
export interface StoredRecords {
  db: Db;
  /** Who asked, as a session of theirs sees the product (their role's capabilities). */
  requester: SessionUser;
  /** The customer's timeline as its page reads it (every module's work). */
  timeline(query: TimelineQuery): Promise<SourcedEntry[]>;
}

export type ReportGenerator = (context: ReportContext) => Promise<GeneratedReport>;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The content type of each kind of file a report writes. */
export const CONTENT_TYPES = {
  xlsx: XLSX_TYPE,
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  json: 'application/json',
} as const;
export type ReportFileType = keyof typeof CONTENT_TYPES;
/** A report's files by type, in the order they are listed (a string is written as UTF-8). */
export type ReportFiles = Partial<Record<ReportFileType, Buffer | string>>;

/** A file name from the organization's name and the date: letters, digits and dashes only. */
export function fileStem(kind: string, organization: string, now: Date): string {
  const slug =
    organization
      .normalize('NFKD')
      .replace(/[^\w]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'organization';
  return `${kind}-${slug}-${now.toISOString().slice(0, 10)}`;
}

const isFileType = (type: string): type is ReportFileType => Object.hasOwn(CONTENT_TYPES, type);

/** A report's files, each named `<kind>-<organization>-<date>.<type>` with its content type, in the order given. */
export function reportFiles(context: ReportContext, kind: string, files: ReportFiles): ReportArtifactFile[] {
  const stem = fileStem(kind, context.organization.name, context.now);
  return Object.entries(files).flatMap(([type, content]) =>
    isFileType(type) && content !== undefined
      ? [
          {
            filename: `${stem}.${type}`,
            contentType: CONTENT_TYPES[type],
            content: typeof content === 'string' ? Buffer.from(content) : content,
          },
        ]
      : [],
  );
}

export interface AccountGroup {
  aid: string;
  accountGroupName: string;
}

/** What a report read group by group writes once every group is read: its summary and its files. */
export interface WrittenReport {
  summary: Markdown;
  files: ReportFiles;
}

/**
 * The shape most report kinds have: each account group read in turn (one step of progress each), then the files
 * written from what was read (the last step). `groups` defaults to the groups the user chose.
 */
export function groupByGroupReport<T>(definition: {
  /** The file names' first word (`fileStem`). */
  kind: string;
  groups?: (context: ReportContext) => Promise<AccountGroup[]>;
  read: (context: ReportContext, group: AccountGroup) => Promise<T>;
  write: (context: ReportContext, read: T[]) => Promise<WrittenReport>;
}): ReportGenerator {
  return async (context) => {
    const groups = definition.groups ? await definition.groups(context) : context.accountGroups;
    const total = groups.length + 1;
    const read: T[] = [];
    for (const [index, group] of groups.entries()) {
      read.push(await definition.read(context, group));
      await context.progress(index + 1, total);
    }
    const { summary, files } = await definition.write(context, read);
    await context.progress(total, total);
    return { summaryMarkdown: summary.text, artifacts: reportFiles(context, definition.kind, files) };
  };
}
