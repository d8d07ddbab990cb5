import type { PlatformSession } from '@ce/platform-client';

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
}

export type ReportGenerator = (context: ReportContext) => Promise<GeneratedReport>;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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
