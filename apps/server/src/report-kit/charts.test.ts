import { describe, expect, it } from 'vitest';
import { barChartSvg } from './charts.js';
import { renderPdf } from './pdf.js';

const chart = {
  title: 'Tests by type',
  categories: ['http-server', 'page-load', 'agent-to-server'],
  series: [
    { name: 'Acme Production', values: [12, 4, 7] },
    { name: 'Acme Lab', values: [3, 0, 9] },
  ],
};

describe('bar charts rendered on the server', () => {
  it('make an SVG with a bar per value, the labels and the legend', () => {
    const svg = barChartSvg(chart);
    expect(svg.startsWith('<svg')).toBe(true);
    for (const label of [...chart.categories, 'Acme Production', 'Acme Lab', 'Tests by type'])
      expect(svg).toContain(label);
    // Five non-zero bars, drawn as paths filled with the series colours.
    expect(svg.match(/fill="#1d4ed8"/g)?.length).toBeGreaterThanOrEqual(3);
    expect(svg.match(/fill="#059669"/g)?.length).toBeGreaterThanOrEqual(2);
    // Value labels carry no outline drawn with paint-order, which PDF renderers would draw over the text.
    expect(svg).toMatch(/<text[^>]*>12<\/text>/);
    expect(svg).not.toContain('paint-order');
  });

  it('go into a PDF through pdfmake, which draws them as vectors', async () => {
    const without = await renderPdf({ content: [{ text: 'Deployment summary' }] });
    const withChart = await renderPdf({
      content: [{ text: 'Deployment summary' }, { svg: barChartSvg(chart), width: 480 }],
    });
    expect(withChart.subarray(0, 5).toString()).toBe('%PDF-');
    // The chart adds drawing instructions (and its text), not an image: the file grows by kilobytes.
    expect(withChart.length - without.length).toBeGreaterThan(1_000);
    expect(withChart.toString('latin1')).not.toContain('/Subtype /Image');
  });
});
