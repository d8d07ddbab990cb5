import { AHC_TABLES, type HealthFindings } from '@ce/contract';
import { streamWorkbook } from '../../../../../report-kit/stream-workbook.js';
import { when } from './common.js';

/** The spreadsheet, written row by row with the streaming writer: Summary, Findings, Changes, one sheet per table. */
export function healthWorkbook(findings: HealthFindings): Promise<Buffer> {
  return streamWorkbook((sheet) => {
    const summary = sheet('Summary', [
      { header: 'Check', width: 40 },
      { header: 'Id', width: 22 },
      { header: 'Status', width: 10 },
      { header: 'Threshold', width: 30 },
      { header: 'Weight', width: 8 },
      { header: 'Items', width: 8 },
      { header: 'Definition', width: 80 },
    ]);
    summary.row([
      `Score ${findings.score.value}/100, grade ${findings.score.grade}`,
      '',
      '',
      '',
      '',
      '',
      `${findings.organization.name}, ${when(findings.generatedAt)}`,
    ]);
    for (const check of findings.checks)
      summary.row([
        check.title,
        check.id,
        check.status,
        check.threshold,
        check.weight,
        check.items.length,
        check.reason ? `${check.definition} ${check.reason}` : check.definition,
      ]);
    summary.done();

    const found = sheet('Findings', [
      { header: 'Check', width: 22 },
      { header: 'Status', width: 10 },
      { header: 'Type', width: 12 },
      { header: 'Id', width: 26 },
      { header: 'Name', width: 40 },
      { header: 'Account group', width: 28 },
      { header: 'Detail', width: 60 },
      { header: 'Cloud units this period', width: 14 },
    ]);
    for (const check of findings.checks)
      for (const item of check.items)
        found.row([
          check.id,
          check.status,
          item.type,
          item.id,
          item.name,
          item.accountGroup ?? '',
          item.detail,
          item.cloudUnits,
        ]);
    found.done();

    const changes = sheet('Changes', [
      { header: 'Change', width: 10 },
      { header: 'Check', width: 22 },
      { header: 'Type', width: 12 },
      { header: 'Id', width: 26 },
      { header: 'Detail', width: 80 },
    ]);
    for (const change of findings.changes.items)
      changes.row([change.change, change.checkId, change.item?.type ?? '', change.item?.id ?? '', change.detail]);
    changes.done();

    for (const key of AHC_TABLES) {
      const table = findings.tables[key];
      if (!table) continue;
      const writer = sheet(
        table.title,
        table.columns.map((header) => ({ header, width: Math.min(40, Math.max(12, header.length + 2)) })),
      );
      if (table.unavailable) writer.row([table.unavailable]);
      for (const row of table.rows) writer.row(row);
      writer.done();
    }
  }, new Date(findings.generatedAt));
}

// Webex --------------------------------------------------------------------------------------------------
