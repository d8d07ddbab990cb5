import Papa from 'papaparse';
import {
  measurementsSchema,
  type FleetEntry,
  type FleetSummary,
  type Measurements,
  type PortfolioEntry,
  type SessionUser,
} from '@ce/contract';
import { neutralize } from '../../report-kit/spreadsheet-safety.js';
import { MEASURED_LIMITS as L } from '../reports/index.js';
import type { WatchPortfolioRepository } from './watch-portfolio.repository.js';
import type { WatchPortfolioService } from './watch-portfolio.service.js';

/**
 * The fleet summary of a TAM's book (issue 60): per customer of My customers, what its latest stored measurements say
 * of this term's units and of the tests below the availability target, the regressions it shares with other
 * customers, and its review packs. Read from the database only: no platform call.
 */

/** Why a customer has no figure before any watch run over it kept measurements. */
export const NOT_MEASURED_YET =
  'no watch run has measured this customer yet: a watch with a health check stores what the platform measured';

const TARGET_PERCENT = L.availabilityTarget * 100;

/** One customer's row of the summary from its My customers entry and the latest measurements kept of it. Pure. */
export function fleetEntryOf(entry: PortfolioEntry, measured: Measurements | null): FleetEntry {
  const unknown = { ok: false as const, reason: NOT_MEASURED_YET };
  const units: FleetEntry['units'] = !measured
    ? unknown
    : measured.units.ok
      ? {
          ok: true,
          value: {
            termEnd: measured.units.value.periodEnd,
            used: measured.units.value.used,
            projected: measured.units.value.projected,
            included: measured.units.value.included,
            runOutAt: measured.units.value.runOutAt,
          },
        }
      : measured.units;
  // Below target as the measured check holds it: the share of good agent-rounds, a test without rounds not judged.
  const belowTarget: FleetEntry['belowTarget'] = !measured
    ? unknown
    : measured.tests.ok
      ? {
          ok: true,
          value: measured.tests.value
            .filter((test) => test.results > 0 && test.good / test.results < L.availabilityTarget)
            .map((test) => ({
              testName: test.testName,
              accountGroup: test.accountGroup,
              availability: test.availability ?? Math.round((test.good / test.results) * 1000) / 10,
            }))
            .sort((a, b) => a.availability - b.availability || a.testName.localeCompare(b.testName)),
        }
      : measured.tests;
  return {
    organizationId: entry.organizationId,
    organizationName: entry.organizationName,
    owners: entry.owners,
    measuredAt: measured?.to ?? null,
    units,
    belowTarget,
    commonRegressions: entry.commonRegressions,
    lastPack: entry.lastPack,
    nextPackDue: entry.nextPackDue,
  };
}

const unknownWords = (reason: string) => `Could not be determined: ${reason}`;
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/** The summary's columns as its CSV names them, and each row's cell. */
const COLUMNS: [string, (entry: FleetEntry) => string | number][] = [
  ['Customer', (entry) => entry.organizationName],
  ['Owners', (entry) => entry.owners.join(', ')],
  ['Measured at', (entry) => entry.measuredAt ?? 'Not measured yet'],
  ['Units used', (entry) => (entry.units.ok ? entry.units.value.used : unknownWords(entry.units.reason))],
  ['Units projected', (entry) => (entry.units.ok ? entry.units.value.projected : '')],
  ['Units included', (entry) => (entry.units.ok ? (entry.units.value.included ?? 'Not named by the platform') : '')],
  ['Term ends', (entry) => (entry.units.ok ? day(entry.units.value.termEnd) : '')],
  ['Units run out on', (entry) => (entry.units.ok ? day(entry.units.value.runOutAt) || 'Not this term' : '')],
  [
    `Tests below ${TARGET_PERCENT}% availability`,
    (entry) => (entry.belowTarget.ok ? entry.belowTarget.value.length : unknownWords(entry.belowTarget.reason)),
  ],
  [
    'Tests below target (worst first)',
    (entry) =>
      entry.belowTarget.ok
        ? entry.belowTarget.value
            .map((test) => `${test.testName} (${test.accountGroup}) ${test.availability.toFixed(1)}%`)
            .join('; ')
        : '',
  ],
  ['Regressions common to several customers', (entry) => entry.commonRegressions.join('; ')],
  ['Last pack', (entry) => entry.lastPack?.periodLabel ?? 'No pack yet'],
  ['Last pack built', (entry) => day(entry.lastPack?.builtAt ?? null)],
  ['Next pack due', (entry) => entry.nextPackDue ?? ''],
];
export const FLEET_CSV_COLUMNS = COLUMNS.map(([header]) => header);

/**
 * The summary as CSV (RFC 4180, CRLF; UTF-8 with a byte-order mark, so spreadsheet programs read accents): quoted
 * where needed, text a spreadsheet would run as a formula disarmed, as the report kit writes every file.
 */
export function fleetCsv(summary: FleetSummary): Buffer {
  const csv = Papa.unparse(
    {
      fields: FLEET_CSV_COLUMNS,
      data: summary.customers.map((entry) => COLUMNS.map(([, cell]) => neutralize(cell(entry)))),
    },
    { newline: '\r\n' },
  );
  return Buffer.from(`\uFEFF${csv}\r\n`, 'utf8');
}

export interface FleetDependencies {
  portfolio: Pick<WatchPortfolioService, 'book'>;
  repository: Pick<WatchPortfolioRepository, 'latestMeasurements'>;
  clock: () => Date;
}

/** The fleet summary of the caller's book (everyone's, for those who see all runs and ask). */
export class WatchFleetService {
  constructor(private readonly deps: FleetDependencies) {}

  async summary(user: SessionUser, everyone: boolean): Promise<FleetSummary> {
    const { entries, watchIds } = await this.deps.portfolio.book(user, everyone);
    const measured = await this.deps.repository.latestMeasurements(watchIds);
    return {
      availabilityTargetPercent: TARGET_PERCENT,
      customers: entries.map((entry) => {
        const kept = measurementsSchema.safeParse(measured.get(entry.organizationId));
        return fleetEntryOf(entry, kept.success ? kept.data : null);
      }),
    };
  }

  /** The summary as a download: a CSV named for the day it was made. */
  async csv(user: SessionUser, everyone: boolean) {
    return {
      filename: `fleet-summary-${this.deps.clock().toISOString().slice(0, 10)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: fleetCsv(await this.summary(user, everyone)),
    };
  }
}
