/**
 * The pack's look, from the brand's colours (the web's `--color-brand-*`, apps/web/src/app/index.css) and the PDF's
 * (report-kit): teal for the frame and headers, slate for text, the charts' series in the report kit's order after
 * the brand's own. Hex without "#", as PPTX takes them; `css()` gives the PDF's form.
 */
export const THEME = {
  brand: '0F766E',
  brandDark: '115E59',
  brandLight: 'CCFBF1',
  text: '0F172A',
  muted: '475569',
  rule: 'CBD5E1',
  stripe: 'F1F5F9',
  white: 'FFFFFF',
  /** Series colours: the brand's teal, then the report kit's palette (blue, amber, red, violet, cyan). */
  series: ['0F766E', '1D4ED8', 'D97706', 'DC2626', '7C3AED', '0891B2'],
  font: 'Arial',
} as const;

export const css = (hex: string) => `#${hex.toLowerCase()}`;

/**
 * Sizes in points that stay readable on a projector at the back of a room and in print: nothing under 12.
 */
export const TYPE = { coverTitle: 40, title: 28, body: 18, table: 14, chart: 14, footer: 12 } as const;
