import { escapeHtml } from '@ce/contract';

export { escapeHtml };

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;color:#0f172a}table{border-collapse:collapse;width:100%}td,th{border:1px solid #cbd5e1;padding:.4rem;text-align:left;vertical-align:top}pre{white-space:pre-wrap;margin:0}</style>
</head><body><p><a href="/sandbox">Sandbox</a></p><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
