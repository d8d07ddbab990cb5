import { describe, expect, it } from 'vitest';
import { renderPdf, renderReportPdf } from './pdf.js';

const pages = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ text: `Page ${index + 1}`, pageBreak: index > 0 ? 'before' : '' }));
const pageCount = (pdf: Buffer) => /\/Type \/Pages\s*\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1];

describe('PDFs made on the PDF thread', () => {
  it('come back whole and in order when several are asked for at once', async () => {
    const made = await Promise.all([1, 2, 3, 4].map((count) => renderPdf({ content: pages(count) })));
    for (const pdf of made) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(made.map(pageCount)).toEqual(['1', '2', '3', '4']);
  });

  it('number the pages at their foot when asked (a report does)', async () => {
    const plain = await renderPdf({ content: pages(3) });
    const numbered = await renderPdf({ content: pages(3) }, { pageNumbered: true });
    expect(pageCount(numbered)).toBe('3');
    // "1 / 3", "2 / 3", "3 / 3": three more lines of text drawn.
    expect(numbered.length).toBeGreaterThan(plain.length);
    const report = await renderReportPdf({ title: 'Health check', organization: 'Acme', cover: [], body: [] });
    expect(pageCount(report)).toBe('2');
  });

  it('fail a definition that is not plain data, and go on with the next', async () => {
    await expect(renderPdf({ content: [{ text: 'x' }], footer: () => 'a function' })).rejects.toThrow();
    const next = await renderPdf({ content: pages(1) });
    expect(next.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
