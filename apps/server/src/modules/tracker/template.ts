import { TASK_TYPES, TEMPLATE_VERSION_LABEL, TRACKER_COLUMNS, TRACKER_LIMITS } from '@ce/contract';

const ROWS_PREPARED = 500;

/**
 * The hours template ('Task_Tracker_Template.xlsx'): an 'Hours' sheet with the row columns, a drop-down
 * of task types, date and number formats and checks, and an 'Instructions' sheet. Built here, so it always
 * matches what the parser reads.
 */
export async function buildTemplate(): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'CE Toolkit';
  workbook.title = `Time tracker template (${TEMPLATE_VERSION_LABEL})`;
  const hours = workbook.addWorksheet('Hours', { views: [{ state: 'frozen', ySplit: 1 }] });
  hours.columns = TRACKER_COLUMNS.map((header) => ({
    header,
    key: header,
    width: header === 'work_performed' ? 60 : header === 'external_reference' ? 24 : 18,
  }));
  hours.getRow(1).font = { bold: true };
  hours.getRow(1).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDBEAFE' } };
  hours.getColumn('due_date').numFmt = 'yyyy-mm-dd';
  hours.getColumn('hours_spent').numFmt = '0.00';
  for (let row = 2; row <= ROWS_PREPARED + 1; row++) {
    hours.getCell(`B${row}`).dataValidation = {
      type: 'list',
      allowBlank: true,
      formulae: [`"${TASK_TYPES.join(',')}"`],
      showErrorMessage: false,
    };
    hours.getCell(`C${row}`).dataValidation = {
      type: 'date',
      operator: 'between',
      allowBlank: true,
      formulae: [new Date(Date.UTC(2000, 0, 1)), new Date(Date.UTC(2100, 11, 31))],
      showErrorMessage: true,
      errorTitle: 'due_date',
      error: 'Enter a date such as 2025-03-26',
    };
    hours.getCell(`F${row}`).dataValidation = {
      type: 'decimal',
      operator: 'between',
      allowBlank: true,
      formulae: [0, 24],
      showErrorMessage: true,
      errorTitle: 'hours_spent',
      error: 'Enter the hours as a number between 0 and 24, such as 1.5',
    };
  }

  const help = workbook.addWorksheet('Instructions');
  help.getColumn(1).width = 22;
  help.getColumn(2).width = 90;
  const lines: [string, string][] = [
    ['CE Toolkit time tracker', TEMPLATE_VERSION_LABEL],
    ['', ''],
    ['How to use', 'One row per piece of work on the Hours sheet, then upload the file in the Time Tracking tool.'],
    ['Engagement_ID', 'The engagement in Salesforce, such as ENG-1001. Rows without one are grouped under Unknown.'],
    ['task_type', `One of the list (${TASK_TYPES.join(', ')}); empty means General.`],
    ['due_date', 'The day of the work, year-month-day. Empty means the day you upload.'],
    ['external_reference', 'A case, ticket or document the work relates to (optional).'],
    ['work_performed', 'What was done, in a sentence or two.'],
    ['hours_spent', 'Hours as a number, such as 1.5. Text that is not a number counts as 0.'],
    ['', ''],
    ['Limits', `Files under 10 MB, at most ${TRACKER_LIMITS.rows.toLocaleString('en-US')} rows; .xlsx, .xls or .csv.`],
    ['Uploading twice', 'Safe: a row already created in Salesforce is reported, not created again.'],
    ['Example', 'ENG-1001 | Meeting | 2025-03-26 | CASE-42 | Weekly cadence call with the customer | 1'],
  ];
  for (const line of lines) help.addRow(line);
  help.getRow(1).font = { bold: true, size: 14 };
  help.getColumn(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
