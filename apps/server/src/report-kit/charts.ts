import { createRequire } from 'node:module';
import type * as ECharts from 'echarts';

/**
 * Apache ECharts, loaded on the first chart: its one-file build, not its module tree of several hundred files, which
 * every process would otherwise resolve at start whether it draws or not (the tree also costs more memory once
 * loaded). The minified file of that build, not the package's entry (the same build with its comments and long
 * names): a process holds a library's source for as long as it runs, and the minified one drew a review pack's PDF
 * in 19 MB less peak memory, the same SVG to the byte.
 */
let loaded: typeof ECharts | undefined;
const echarts = (): typeof ECharts =>
  (loaded ??= createRequire(import.meta.url)('echarts/dist/echarts.min') as typeof ECharts);

export interface BarChart {
  title: string;
  categories: string[];
  series: { name: string; values: number[] }[];
  /**
   * Bars along, each labelled on its left by its category, all of them (none dropped when they are long or many),
   * the first at the top: for categories that are names rather than short words.
   */
  horizontal?: boolean;
  width?: number;
  height?: number;
}

/** The product's colours for chart series, in order. */
const PALETTE = ['#1d4ed8', '#059669', '#d97706', '#dc2626', '#7c3aed', '#0891b2'];

/**
 * A bar chart as SVG, rendered by Apache ECharts on the server (no browser): the same library and the
 * same options draw it in the browser. The SVG goes into HTML reports as it is and into PDFs through
 * pdfmake's `svg` node.
 */
export function barChartSvg(chart: BarChart): string {
  const instance = echarts().init(null, null, {
    renderer: 'svg',
    ssr: true,
    width: chart.width ?? 640,
    height: chart.height ?? 320,
  });
  try {
    instance.setOption({
      animation: false,
      color: PALETTE,
      title: { text: chart.title, left: 'center', textStyle: { fontSize: 14, fontFamily: 'Helvetica' } },
      legend: { bottom: 0, textStyle: { fontFamily: 'Helvetica' } },
      ...(chart.horizontal
        ? {
            grid: { left: 16, right: 40, top: 40, bottom: 40, containLabel: true },
            xAxis: { type: 'value', minInterval: 1, axisLabel: { fontFamily: 'Helvetica' } },
            yAxis: {
              type: 'category',
              data: chart.categories,
              inverse: true,
              axisLabel: { fontFamily: 'Helvetica', interval: 0 },
            },
          }
        : {
            grid: { left: 48, right: 16, top: 40, bottom: 48 },
            xAxis: { type: 'category', data: chart.categories, axisLabel: { fontFamily: 'Helvetica' } },
            yAxis: { type: 'value', minInterval: 1, axisLabel: { fontFamily: 'Helvetica' } },
          }),
      series: chart.series.map((series) => ({
        type: 'bar',
        name: series.name,
        data: series.values,
        // No outline: PDF renderers ignore paint-order, and an outline drawn over the text hides it.
        label: {
          show: true,
          position: chart.horizontal ? 'right' : 'top',
          fontFamily: 'Helvetica',
          textBorderColor: 'transparent',
        },
      })),
    });
    return instance.renderToSVGString();
  } finally {
    instance.dispose();
  }
}

export interface LineChart {
  title: string;
  categories: string[];
  values: number[];
  /** The y axis runs from 0 to this value (100 for a score). */
  max?: number;
  width?: number;
  height?: number;
}

/** A line chart as SVG (one series, a point and its value at each category), rendered like the bar chart. */
export function lineChartSvg(chart: LineChart): string {
  const instance = echarts().init(null, null, {
    renderer: 'svg',
    ssr: true,
    width: chart.width ?? 640,
    height: chart.height ?? 260,
  });
  try {
    instance.setOption({
      animation: false,
      color: PALETTE,
      title: { text: chart.title, left: 'center', textStyle: { fontSize: 14, fontFamily: 'Helvetica' } },
      grid: { left: 48, right: 24, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: chart.categories, axisLabel: { fontFamily: 'Helvetica' } },
      yAxis: {
        type: 'value',
        min: 0,
        ...(chart.max ? { max: chart.max } : {}),
        axisLabel: { fontFamily: 'Helvetica' },
      },
      series: [
        {
          type: 'line',
          data: chart.values,
          symbolSize: 8,
          label: { show: true, position: 'top', fontFamily: 'Helvetica', textBorderColor: 'transparent' },
        },
      ],
    });
    return instance.renderToSVGString();
  } finally {
    instance.dispose();
  }
}
