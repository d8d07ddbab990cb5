import type { Readable } from '../../../../../report-kit/platform-reads.js';
import type { CellValue, Column, SheetWriter } from '../../../../../report-kit/stream-workbook.js';
import type { GroupConfig, OrganizationConfig } from '../read.js';

/** What the workbook's tabs are written from: every list read once per group, then the organization's. */
export interface ConfigBook {
  groups: GroupConfig[];
  organization: OrganizationConfig;
  organizationName: string;
  now: Date;
}

/** One tab of the configuration workbook: its name, its columns, and how its rows come from the book. */
export interface ConfigSheet {
  name: string;
  columns: Column[];
  write(writer: SheetWriter, book: ConfigBook): void;
}

export const date = (value: string | undefined): CellValue => (value ? new Date(value) : null);
export const count = <T>(read: Readable<T[]>) => (read.ok ? read.value.length : null);
export const target = (test: Record<string, unknown>) =>
  String(test.url ?? test.server ?? test.domain ?? test.prefix ?? '') +
  (test.port !== undefined && test.server !== undefined ? `:${String(test.port)}` : '');

/** A row function's answer as several lines (a cell is never a list). */
const isLines = (written: CellValue[] | CellValue[][]): written is CellValue[][] => Array.isArray(written[0]);

/** Rows of one list across the groups; a refused list writes its reason once, in the first column. */
export function rowsOf<T>(
  writer: SheetWriter,
  groups: GroupConfig[],
  pick: (group: GroupConfig) => Readable<T[]>,
  row: (group: GroupConfig, item: T) => CellValue[] | CellValue[][],
): void {
  for (const group of groups) {
    const read = pick(group);
    if (!read.ok) {
      writer.row([group.accountGroupName, read.reason]);
      continue;
    }
    for (const item of read.value) {
      const written = row(group, item);
      if (isLines(written)) for (const line of written) writer.row(line);
      else writer.row(written);
    }
  }
}
