import { barChartSvg, lineChartSvg } from '../../report-kit/charts.js';
import { PDF_CONTENT_WIDTH, pdfTable, renderPdf } from '../../report-kit/pdf.js';
import { REVIEW_MESSAGES } from '@ce/contract';
import type { ReviewPack } from './review-pack.js';
import { planSlides, type ChartPlan, type SlidePlan } from './review-slides.js';
import { css, THEME } from './review-theme.js';

const WIDTH = PDF_CONTENT_WIDTH.landscape;

/** A value as the chart labels it (one decimal); a week without rounds is a gap (NaN), never a zero. */
const shown = (value: number | null) => (value === null ? Number.NaN : Math.round(value * 10) / 10);

/**
 * A chart as the report kit draws it on the server: bars by series; a line chart one chart per series (the lines of
 * several tests drawn over each other at a page's width are unreadable in print), each named by its series.
 */
function chartNodes(chart: ChartPlan): Record<string, unknown>[] {
  const node = (svg: string) => ({ svg, width: WIDTH, margin: [0, 4, 0, 4] });
  if (chart.type === 'line')
    return chart.series.flatMap((series) => [
      ...(chart.series.length > 1 ? [{ text: series.name, bold: true, fontSize: 12, margin: [0, 6, 0, 0] }] : []),
      node(
        lineChartSvg({
          title: '',
          categories: chart.categories,
          values: series.values.map(shown),
          max: chart.max,
          width: WIDTH,
          height: chart.series.length > 1 ? 170 : 300,
        }),
      ),
    ]);
  return [
    node(
      barChartSvg({
        title: '',
        categories: chart.categories,
        series: chart.series.map((series) => ({ name: series.name, values: series.values.map(shown) })),
        width: WIDTH,
        height: 300,
      }),
    ),
  ];
}

const lines = (texts: string[]) => texts.map((text) => ({ text, fontSize: 12, margin: [0, 0, 0, 4] }));

/** One slide as a landscape page: its title (in the contents), its content, its source. */
function page(plan: SlidePlan, first: boolean): Record<string, unknown>[] {
  const title = {
    text: plan.title,
    fontSize: plan.kind === 'cover' ? 30 : 20,
    bold: true,
    color: plan.kind === 'cover' ? css(THEME.brand) : css(THEME.text),
    margin: [0, plan.kind === 'cover' ? 150 : 0, 0, 12],
    ...(first ? {} : { pageBreak: 'before', tocItem: true }),
  };
  const footer = plan.footer
    ? [{ text: plan.footer, fontSize: 10, color: css(THEME.muted), margin: [0, 12, 0, 0] }]
    : [];
  switch (plan.kind) {
    case 'cover':
      return [title, ...lines(plan.lines)];
    case 'bullets':
      return [
        title,
        ...plan.groups.flatMap((group) => [
          { text: group.heading, bold: true, fontSize: 14, color: css(THEME.brandDark), margin: [0, 6, 0, 4] },
          { ul: group.items, fontSize: 12 },
        ]),
        ...footer,
      ];
    case 'chart':
      return [
        title,
        ...lines(plan.lines),
        ...chartNodes(plan.chart),
        { text: `Values: ${plan.chart.unit}.`, fontSize: 10, color: css(THEME.muted) },
        ...footer,
      ];
    case 'table':
      return [
        title,
        ...lines(plan.lines),
        pdfTable(plan.columns, plan.rows, { maxRows: plan.rows.length, margin: [0, 4, 0, 4], width: WIDTH }),
        ...footer,
      ];
    case 'text':
      return [title, ...lines(plan.lines), ...footer];
  }
}

/**
 * The pack's PDF, drawn by the report kit (pdfmake on its PDF thread, charts by ECharts on the server): the deck's
 * slides one landscape page each, same titles, figures and tables, and a table of contents. It needs nothing but npm
 * packages: the product's PDF of a deck on any machine (a LibreOffice conversion of the PPTX is only the tests' check).
 */
export function renderReviewPdf(pack: ReviewPack): Promise<Buffer> {
  const plans = planSlides(pack);
  const [cover, ...rest] = plans;
  return renderPdf(
    {
      info: {
        title: REVIEW_MESSAGES.documentTitle(pack.customer, pack.periodLabel),
        subject: REVIEW_MESSAGES.documentTitle(pack.customer, pack.periodLabel),
        author: pack.preparedBy,
        creator: 'CE Toolkit',
      },
      pageOrientation: 'landscape',
      content: [
        ...(cover ? page(cover, true) : []),
        { toc: { title: { text: 'Contents', fontSize: 16, bold: true } }, pageBreak: 'before' },
        ...rest.flatMap((plan) => page(plan, false)),
      ],
    },
    { pageNumbered: true },
  );
}
