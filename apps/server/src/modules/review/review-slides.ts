import { REVIEW_MESSAGES } from '@ce/contract';
import { utcMinuteOf } from '../../report-kit/dates.js';
import {
  isUnknown,
  SECTION_TITLES,
  unknownText,
  type Figure,
  type ReviewPack,
  type Section,
  type SectionSource,
} from './review-pack.js';

/**
 * The slides of a pack, as plain data: what the deck (PPTX) and its PDF both draw, so their titles, figures and
 * tables are the same. Pure: no I/O.
 */

export interface ChartPlan {
  type: 'bar' | 'line';
  categories: string[];
  series: { name: string; values: (number | null)[] }[];
  /** The value axis runs from `min` (0 unless said) to `max` (100 for a percentage or a score). */
  min?: number;
  max?: number;
  /** What the values are, under the chart ("percent of rounds without an error"). */
  unit: string;
}

export type SlidePlan = { title: string; footer?: string } & (
  | { kind: 'cover'; lines: string[] }
  | { kind: 'bullets'; groups: { heading: string; items: string[] }[] }
  | { kind: 'chart'; chart: ChartPlan; lines: string[] }
  | { kind: 'table'; columns: string[]; rows: string[][]; lines: string[] }
  | { kind: 'text'; lines: string[] }
);

/** Rows a table slide holds at a projector's font size; a longer table goes on to the next slide, its header again. */
export const TABLE_ROWS_PER_SLIDE = 10;

const when = (iso: string) => utcMinuteOf(iso);
const day = (iso: string) => iso.slice(0, 10);
const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });
const figure = (value: Figure, unit = '') => (isUnknown(value) ? unknownText(value) : `${number(value)}${unit}`);
const footer = (section: SectionSource) => `Source: ${section.source}. Figures up to ${when(section.cutOff)}.`;

/** A table's slides: all its rows, `TABLE_ROWS_PER_SLIDE` a slide, "(2 of 3)" after the title of each part. */
function tableSlides(title: string, foot: string, columns: string[], rows: string[][], lines: string[]): SlidePlan[] {
  const parts = Math.max(1, Math.ceil(rows.length / TABLE_ROWS_PER_SLIDE));
  return Array.from({ length: parts }, (_, part) => ({
    kind: 'table' as const,
    title: parts === 1 ? title : `${title} (${part + 1} of ${parts})`,
    footer: foot,
    columns,
    rows: rows.slice(part * TABLE_ROWS_PER_SLIDE, (part + 1) * TABLE_ROWS_PER_SLIDE),
    lines: part === 0 ? lines : [],
  }));
}

/** A list's table, or the words that say it is empty. */
function listSlides(
  title: string,
  foot: string,
  columns: string[],
  rows: string[][],
  empty: string,
  lines: string[] = [],
): SlidePlan[] {
  if (rows.length === 0) return [{ kind: 'text', title, footer: foot, lines: [...lines, empty] }];
  return tableSlides(title, foot, columns, rows, lines);
}

/** The section's slides, or one that says why its content could not be determined. */
function sectionSlides<T>(section: Section<T>, title: string, draw: (content: T, foot: string) => SlidePlan[]) {
  const foot = footer(section);
  if (isUnknown(section.content))
    return [{ kind: 'text' as const, title, footer: foot, lines: [unknownText(section.content)] }];
  return draw(section.content, foot);
}

const known = (values: (number | null)[]) => values.filter((value): value is number => value !== null);
const average = (values: (number | null)[]) => {
  const measured = known(values);
  return measured.length ? measured.reduce((sum, value) => sum + value, 0) / measured.length : null;
};
/**
 * A key test's figure in three states: its value (0 included, a real zero), or no rounds (nothing was measured), or
 * for the latency of a test that made rounds none of which measured one (all failed, or its type measures none).
 */
const measuredOr = (value: number | null, unit: string, rounds: boolean) =>
  value !== null ? `${number(value)}${unit}` : rounds ? REVIEW_MESSAGES.noLatency : REVIEW_MESSAGES.noRounds;

/** Every slide of the pack, in order: the cover, then each section's. */
export function planSlides(pack: ReviewPack): SlidePlan[] {
  const t = SECTION_TITLES;
  return [
    {
      kind: 'cover',
      title: `${pack.customer}: ${pack.periodLabel} review`,
      lines: [
        `${day(pack.from)} to ${day(new Date(Date.parse(pack.to) - 1).toISOString())}`,
        `Prepared by ${pack.preparedBy}`,
        `Figures up to ${when(pack.cutOff)}`,
      ],
    },
    ...sectionSlides(pack.executiveSummary, t.executiveSummary, (content, foot) => [
      {
        kind: 'bullets',
        title: t.executiveSummary,
        footer: foot,
        groups: [
          ...(content.goals?.length ? [{ heading: 'Goals', items: content.goals }] : []),
          { heading: 'Top outcomes', items: content.outcomes.slice(0, 3) },
          { heading: 'Top actions', items: content.actions.slice(0, 3) },
        ],
      },
    ]),
    ...sectionSlides(pack.units, t.units, (units, foot) => [
      {
        kind: 'chart',
        title: t.units,
        footer: foot,
        chart: {
          type: 'bar',
          categories: units.trend.map((point) => point.label),
          series: [{ name: 'Units used', values: units.trend.map((point) => point.used) }],
          unit: 'units used in each part of the period',
        },
        lines: [
          `Included: ${figure(units.included)}`,
          `Used: ${figure(units.used)}`,
          `Projected for the period: ${figure(units.projected)}`,
          `Forecast to the term's end (${day(units.termEnd)}): ${figure(units.forecastToTermEnd)}`,
        ],
      },
      ...listSlides(
        'Largest consumers of units',
        foot,
        ['Test', 'Units used'],
        units.largestConsumers.map((row) => [row.test, number(row.units)]),
        'No test used units in the period.',
      ),
    ]),
    ...sectionSlides(pack.availability, t.availability, (availability, foot) => [
      {
        kind: 'chart',
        title: t.availability,
        footer: foot,
        chart: {
          type: 'line',
          categories: availability.weeks,
          series: availability.tests.map((test) => ({ name: test.test, values: test.availability })),
          // From just under the lowest week: a drop from 100% to 97% is what the reader looks for.
          min: Math.max(
            0,
            Math.floor(Math.min(100, ...availability.tests.flatMap((test) => known(test.availability)))) - 1,
          ),
          max: 100,
          unit: 'percent of rounds without an error, each week',
        },
        lines: [`Target: ${number(availability.targetPercent)}%`],
      },
      ...listSlides(
        'Key tests over the period',
        foot,
        ['Test', 'Availability', 'Worst week', 'Latency', 'Against target'],
        availability.tests.map((test) => {
          const measured = known(test.availability);
          // Availability is null exactly where no round was made: the latency's null then says the same.
          const rounds = measured.length > 0;
          return [
            test.test,
            measuredOr(average(test.availability), '%', false),
            rounds ? `${number(Math.min(...measured))}%` : REVIEW_MESSAGES.noRounds,
            measuredOr(average(test.latencyMs), ' ms', rounds),
            test.belowTarget ? 'Below target' : rounds ? 'On target' : REVIEW_MESSAGES.noRounds,
          ];
        }),
        'No key test was chosen for this pack.',
      ),
    ]),
    ...sectionSlides(pack.alerts, t.alerts, (alerts, foot) => [
      {
        kind: 'chart',
        title: t.alerts,
        footer: foot,
        chart: {
          type: 'bar',
          categories: alerts.weeks,
          series: [{ name: 'Alerts triggered', values: alerts.volume }],
          unit: 'alerts triggered each week',
        },
        lines: [
          `Median time to clear: ${figure(alerts.medianMinutesToClear, alerts.medianMinutesToClear === 1 ? ' minute' : ' minutes')}`,
        ],
      },
      ...listSlides(
        'Noisiest alert rules',
        foot,
        ['Alert rule', 'Alerts'],
        alerts.noisiestRules.map((rule) => [rule.rule, number(rule.alerts)]),
        'No alert rule fired in the period.',
      ),
      ...listSlides(
        // The watches count the alerts that started in a run's window: one still active from before is not new.
        'Alert rules with no new alert in the period',
        foot,
        ['Alert rule'],
        alerts.silentRules.map((rule) => [rule]),
        'Every alert rule had a new alert in the period.',
      ),
    ]),
    ...sectionSlides(pack.outages, t.outages, (found, foot) => [
      ...listSlides(
        'Outages that touched your tests',
        foot,
        ['Started', 'Ended', 'Provider', 'Tests', 'Evidence'],
        found.outages.map((outage) => [
          when(outage.start),
          outage.end ? when(outage.end) : 'ongoing',
          outage.provider,
          outage.tests.join(', '),
          outage.evidenceUrl ?? 'no snapshot',
        ]),
        'No Internet Insights outage touched your tests in the period.',
        found.notes ?? [],
      ),
      ...listSlides(
        'Events on your tests',
        foot,
        ['Started', 'Ended', 'Type', 'Severity', 'Tests'],
        found.events.map((event) => [
          when(event.start),
          event.end ? when(event.end) : 'ongoing',
          event.type,
          event.severity,
          event.tests.join(', '),
        ]),
        'The platform found no event on your tests in the period.',
      ),
    ]),
    ...sectionSlides(pack.agents, t.agents, (agents, foot) =>
      listSlides(
        t.agents,
        foot,
        ['Agent', 'State', 'Since or why'],
        [
          ...agents.offline.map((agent) => [
            agent.agent,
            'Offline',
            agent.lastSeen ? `last seen ${when(agent.lastSeen)}` : 'last seen unknown',
          ]),
          ...agents.outdated.map((agent) => [agent.agent, 'Needs attention', agent.problem]),
        ],
        'Every agent was online and up to date at the cut-off.',
      ),
    ),
    ...sectionSlides(pack.changes, t.changes, (changes, foot) =>
      listSlides(
        t.changes,
        foot,
        ['Person', 'Changes', 'What'],
        changes.byPerson.map((row) => [row.person, number(row.changes), row.what]),
        'Nobody changed the configuration in the period.',
        [`Active users: ${figure(changes.activeUsers)}`],
      ),
    ),
    ...sectionSlides(pack.health, t.health, (health, foot) => [
      {
        kind: 'chart',
        title: t.health,
        footer: foot,
        chart: {
          type: 'line',
          categories: health.points.map((point) => point.label),
          series: [{ name: 'Health score', values: health.points.map((point) => point.score) }],
          max: 100,
          unit: 'health score at each check (0 to 100)',
        },
        // The heading once, then each change that moved the score.
        lines: health.movers.length ? [REVIEW_MESSAGES.whatMoved, ...health.movers] : [],
      },
    ]),
    ...sectionSlides(pack.teamWork, t.teamWork, (work, foot) =>
      listSlides(
        t.teamWork,
        foot,
        ['What', 'How many'],
        work.items.map((item) => [item.what, number(item.count)]),
        'The team recorded no work in the period.',
        [`Hours: ${figure(work.hours)}`],
      ),
    ),
    ...sectionSlides(pack.recommendations, t.recommendations, (open, foot) =>
      listSlides(
        t.recommendations,
        foot,
        ['Recommendation', 'Owner', 'Due'],
        open.items.map((item) => [item.recommendation, item.owner, item.due ? day(item.due) : 'not set']),
        'No recommendation is open.',
      ),
    ),
  ];
}
