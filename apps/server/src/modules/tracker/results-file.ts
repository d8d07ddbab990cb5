import { TRACKER_COLUMNS, type TaskResult, type TrackerRow } from '@ce/contract';
import { streamWorkbook } from '../../report-kit/stream-workbook.js';

const OUTCOME_WORDS: Record<TaskResult['outcome'], string> = {
  created: 'Created',
  duplicate: 'Already created',
  failed: 'Failed',
};

/** The rows as uploaded with the outcome, the Salesforce Id and the error of each (cells neutralised). */
export function resultsWorkbook(rows: TrackerRow[], results: TaskResult[]): Promise<Buffer> {
  const byRow = new Map(results.map((result) => [result.row, result]));
  return streamWorkbook((sheet) => {
    const writer = sheet('Results', [
      { header: 'Row', width: 6 },
      ...TRACKER_COLUMNS.map((header) => ({ header, width: header === 'work_performed' ? 60 : 18 })),
      { header: 'Outcome', width: 16 },
      { header: 'Id', width: 22 },
      { header: 'Error', width: 60 },
    ]);
    for (const row of rows) {
      const result = byRow.get(row.row);
      writer.row([
        row.row,
        ...TRACKER_COLUMNS.map((column) => row[column]),
        result ? OUTCOME_WORDS[result.outcome] : '',
        result?.id ?? '',
        result?.error ?? '',
      ]);
    }
    writer.done();
  });
}
