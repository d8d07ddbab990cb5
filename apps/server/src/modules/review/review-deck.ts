import type PptxGenJS from 'pptxgenjs';
import { REVIEW_MESSAGES } from '@ce/contract';
import type { ReviewPack } from './review-pack.js';
import { planSlides, type ChartPlan, type SlidePlan } from './review-slides.js';
import { THEME, TYPE } from './review-theme.js';

type Deck = InstanceType<typeof PptxGenJS>;
type Slide = ReturnType<Deck['addSlide']>;

/** pptxgenjs, loaded with the first deck: no process pays for it at start. */
let loaded: Promise<typeof PptxGenJS> | undefined;
const library = () => (loaded ??= import('pptxgenjs').then((module) => module.default));

// The wide layout (13.33 x 7.5 inches): where things go, in inches.
const MARGIN = 0.5;
const WIDTH = 13.333 - 2 * MARGIN;
const BODY_TOP = 1.35;
const FOOTER_TOP = 6.85;
const MASTER = 'REVIEW';
const COVER = 'REVIEW_COVER';

function defineMasters(deck: Deck): void {
  const text = { fontFace: THEME.font, color: THEME.text };
  deck.defineSlideMaster({
    title: MASTER,
    background: { color: THEME.white },
    objects: [
      { rect: { x: 0, y: 0, w: '100%', h: 0.14, fill: { color: THEME.brand } } },
      { line: { x: MARGIN, y: FOOTER_TOP - 0.08, w: WIDTH, h: 0, line: { color: THEME.rule, width: 0.75 } } },
      {
        placeholder: {
          options: {
            name: 'title',
            type: 'title',
            x: MARGIN,
            y: 0.35,
            w: WIDTH,
            h: 0.85,
            fontSize: TYPE.title,
            bold: true,
            align: 'left',
            ...text,
          },
          text: '',
        },
      },
    ],
    slideNumber: { x: 12.3, y: FOOTER_TOP, w: 0.6, h: 0.4, fontSize: TYPE.footer, color: THEME.muted, align: 'right' },
  });
  deck.defineSlideMaster({
    title: COVER,
    background: { color: THEME.brand },
    objects: [
      {
        placeholder: {
          options: {
            name: 'title',
            type: 'title',
            x: MARGIN + 0.3,
            y: 2.2,
            w: WIDTH - 0.6,
            h: 1.6,
            fontSize: TYPE.coverTitle,
            bold: true,
            align: 'left',
            fontFace: THEME.font,
            color: THEME.white,
          },
          text: '',
        },
      },
    ],
  });
}

/** Lines of text from `top`, one paragraph each. */
function addLines(slide: Slide, lines: string[], box: { x: number; y: number; w: number; h: number }, size: number) {
  if (lines.length === 0) return;
  slide.addText(
    lines.map((line) => ({ text: line, options: { breakLine: true } })),
    { ...box, fontFace: THEME.font, fontSize: size, color: THEME.text, valign: 'top', paraSpaceAfter: 8 },
  );
}

function addChart(deck: Deck, slide: Slide, chart: ChartPlan, box: { x: number; y: number; w: number; h: number }) {
  const data = chart.series.map((series) => ({
    name: series.name,
    labels: chart.categories,
    // A week without rounds is a gap in the line, not a zero.
    values: series.values.map((value) => value ?? ''),
  }));
  const many = chart.series.length > 1;
  slide.addChart(chart.type === 'bar' ? deck.ChartType.bar : deck.ChartType.line, data, {
    ...box,
    h: box.h - 0.4,
    chartColors: THEME.series.slice(0, Math.max(1, chart.series.length)),
    barDir: 'col',
    barGapWidthPct: 60,
    lineSize: 3,
    lineDataSymbolSize: 8,
    displayBlanksAs: 'gap',
    showLegend: many,
    legendPos: 'b',
    legendFontSize: TYPE.chart,
    legendFontFace: THEME.font,
    showValue: !many,
    dataLabelFontSize: TYPE.chart - 2,
    dataLabelFontFace: THEME.font,
    dataLabelPosition: chart.type === 'bar' ? 'outEnd' : 't',
    catAxisLabelFontSize: TYPE.chart,
    catAxisLabelFontFace: THEME.font,
    catAxisLabelColor: THEME.text,
    valAxisLabelFontSize: TYPE.chart,
    valAxisLabelFontFace: THEME.font,
    valAxisLabelColor: THEME.text,
    valAxisMinVal: chart.min ?? 0,
    valAxisLabelFormatCode: '#,##0',
    ...(chart.max !== undefined ? { valAxisMaxVal: chart.max } : {}),
    valGridLine: { color: THEME.rule, size: 0.5 },
  });
  slide.addText(`Values: ${chart.unit}.`, {
    x: box.x,
    y: box.y + box.h - 0.35,
    w: box.w,
    h: 0.35,
    fontFace: THEME.font,
    fontSize: TYPE.footer,
    color: THEME.muted,
  });
}

function addTable(slide: Slide, columns: string[], rows: string[][], top: number) {
  const header = columns.map((column) => ({
    text: column,
    options: { bold: true, color: THEME.white, fill: { color: THEME.brand } },
  }));
  const body = rows.map((row, index) =>
    row.map((cell) => ({ text: cell, options: index % 2 ? { fill: { color: THEME.stripe } } : {} })),
  );
  slide.addTable([header, ...body], {
    x: MARGIN,
    y: top,
    w: WIDTH,
    fontFace: THEME.font,
    fontSize: TYPE.table,
    color: THEME.text,
    border: { type: 'solid', pt: 0.5, color: THEME.rule },
    valign: 'middle',
    margin: 0.06,
  });
}

function drawSlide(deck: Deck, plan: SlidePlan): void {
  const slide = deck.addSlide({ masterName: plan.kind === 'cover' ? COVER : MASTER });
  slide.addText(plan.title, { placeholder: 'title' });
  if (plan.footer)
    slide.addText(plan.footer, {
      x: MARGIN,
      y: FOOTER_TOP,
      w: WIDTH - 0.8,
      h: 0.4,
      fontFace: THEME.font,
      fontSize: TYPE.footer,
      color: THEME.muted,
    });
  const body = { x: MARGIN, y: BODY_TOP, w: WIDTH, h: FOOTER_TOP - 0.2 - BODY_TOP };
  switch (plan.kind) {
    case 'cover':
      slide.addText(plan.lines.join('\n'), {
        x: MARGIN + 0.3,
        y: 4,
        w: WIDTH - 0.6,
        h: 1.6,
        fontFace: THEME.font,
        fontSize: TYPE.body + 2,
        color: THEME.brandLight,
        valign: 'top',
      });
      return;
    case 'bullets': {
      // One column a group (goals, outcomes, actions), side by side.
      const columns = Math.max(1, plan.groups.length);
      const half = (body.w - 0.4 * (columns - 1)) / columns;
      plan.groups.forEach((group, index) => {
        slide.addText(
          [
            {
              text: group.heading,
              options: { bold: true, fontSize: TYPE.body + 2, color: THEME.brandDark, breakLine: true },
            },
            ...group.items.map((item) => ({ text: item, options: { bullet: true, breakLine: true } })),
          ],
          {
            x: body.x + index * (half + 0.4),
            y: body.y,
            w: half,
            h: body.h,
            fontFace: THEME.font,
            fontSize: TYPE.body,
            color: THEME.text,
            valign: 'top',
            paraSpaceAfter: 10,
          },
        );
      });
      return;
    }
    case 'chart': {
      const side = plan.lines.length ? 3.9 : 0;
      addChart(deck, slide, plan.chart, { ...body, w: body.w - side });
      addLines(slide, plan.lines, { x: body.x + body.w - side + 0.3, y: body.y, w: side - 0.3, h: body.h }, TYPE.body);
      return;
    }
    case 'table': {
      const linesHeight = plan.lines.length * 0.45;
      addLines(slide, plan.lines, { ...body, h: linesHeight }, TYPE.body);
      addTable(slide, plan.columns, plan.rows, body.y + linesHeight);
      return;
    }
    case 'text':
      addLines(slide, plan.lines, body, TYPE.body);
  }
}

/**
 * The pack as a PowerPoint deck (PPTX), in the brand's theme: a title on every slide (a real title placeholder, so an
 * outline, a screen reader and a converted PDF find it), charts as native PPTX charts (they stay sharp on a projector
 * and in print, and can be restyled), every table whole, split across slides with its header repeated.
 */
export async function renderReviewDeck(pack: ReviewPack): Promise<Buffer> {
  const Library = await library();
  const deck = new Library();
  deck.layout = 'LAYOUT_WIDE';
  // The file's own properties (a file manager, a mail client and PowerPoint's Info say them): the pack's, never the
  // library's default subject ("PptxGenJS Presentation").
  deck.title = REVIEW_MESSAGES.documentTitle(pack.customer, pack.periodLabel);
  deck.subject = REVIEW_MESSAGES.documentTitle(pack.customer, pack.periodLabel);
  deck.author = pack.preparedBy;
  deck.company = pack.customer;
  defineMasters(deck);
  for (const plan of planSlides(pack)) drawSlide(deck, plan);
  const bytes = await deck.write({ outputType: 'nodebuffer' });
  // 'nodebuffer' answers a Buffer; the library's types name every output type.
  if (!(bytes instanceof Uint8Array)) throw new Error('The deck could not be written.');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
