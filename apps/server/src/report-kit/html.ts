import { escapeHtml } from '@ce/contract';

/** Every text from the platform goes into a report's HTML through this escaper (the contract's). */
export { escapeHtml };

/** A self-contained HTML document: inline styles, no scripts, nothing fetched. */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a;margin:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:24px 0 8px}
.meta{color:#475569;margin:0 0 16px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px}
th,td{border:1px solid #cbd5e1;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f1f5f9}
.badge{display:inline-block;border-radius:9999px;padding:1px 8px;font-size:12px;font-weight:600}
.now{background:#dcfce7;color:#166534}.upcoming{background:#e0f2fe;color:#075985}.expired{background:#f1f5f9;color:#475569}
.finding{background:#fef3c7;border:1px solid #f59e0b;border-radius:6px;padding:8px 12px;margin:6px 0}
</style></head><body>${body}</body></html>`;
}
