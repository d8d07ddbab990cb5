import { HEALTH_CHECK_WEIGHTS, type EvidenceItem, type HealthCheck } from '@ce/contract';
import { day, percent, type CheckSpec, type HealthInput, unknownCheck } from './input.js';
import type { UnitsMeasure } from './measured-input.js';
import { MEASURED_LIMITS as L } from './measured-limits.js';

const units = (value: number) => Math.round(value).toLocaleString('en-US');

/**
 * When the included units run out at the rate the platform projects for the rest of the period (the units still
 * to come, spread evenly to the period's end), or undefined when they last the period.
 */
export function runOutDate(
  measure: UnitsMeasure,
  now: Date,
): { used: number; projected: number; included: number; at?: number } | undefined {
  const { included } = measure;
  if (!included) return undefined;
  const used = measure.tests.reduce((sum, test) => sum + test.used, 0);
  const projected = measure.tests.reduce((sum, test) => sum + test.projected, 0);
  const end = Date.parse(measure.periodEnd);
  if (projected <= included) return { used, projected, included };
  if (used >= included) return { used, projected, included, at: now.getTime() };
  const perMs = (projected - used) / Math.max(1, end - now.getTime());
  return { used, projected, included, at: now.getTime() + (included - used) / perMs };
}

/** The largest consumers by projected units: tests, then account groups. */
function largest(measure: UnitsMeasure, total: number): EvidenceItem[] {
  const share = (value: number) => (total > 0 ? ` (${percent(value / total)} of the projection)` : '');
  const tests = [...measure.tests]
    .sort((a, b) => b.projected - a.projected)
    .slice(0, L.largestConsumers)
    .map((test): EvidenceItem => ({
      type: 'test',
      id: test.testId,
      name: test.testName,
      detail: `${units(test.used)} used, ${units(test.projected)} projected${share(test.projected)}`,
      accountGroup: test.accountGroup,
      cloudUnits: test.used,
    }));
  const byGroup = new Map<string, { used: number; projected: number }>();
  for (const test of measure.tests) {
    const entry = byGroup.get(test.accountGroup) ?? { used: 0, projected: 0 };
    entry.used += test.used;
    entry.projected += test.projected;
    byGroup.set(test.accountGroup, entry);
  }
  const groups = [...byGroup]
    .sort((a, b) => b[1].projected - a[1].projected)
    .slice(0, L.largestConsumers)
    .map(([group, entry]): EvidenceItem => ({
      type: 'account-group',
      id: group,
      name: group,
      detail: `${units(entry.used)} used, ${units(entry.projected)} projected${share(entry.projected)}`,
      accountGroup: group,
    }));
  return [...tests, ...groups];
}

export function unitsRunway(input: HealthInput): HealthCheck {
  const spec: CheckSpec = {
    id: 'units-runway',
    title: 'Cloud units run out before the period ends',
    threshold: 'projected above the included units',
    definition:
      "The cloud units each test used and is projected to use this billing period (/usage/units/tests), summed, against the units the plan includes (/usage): when the projection is above them, the date they run out at the projected rate, and the largest consumers by test and account group, with the instant tests' share.",
    remediation:
      'Lower the frequency or the agents of the largest consumers (or remove the tests nobody uses), or buy units before the date they run out.',
  };
  const measured = input.measured?.units;
  if (!measured) return unknownCheck(spec, 'The units were not read.');
  if (!measured.ok) return unknownCheck(spec, measured.reason);
  const runway = runOutDate(measured.value, input.now);
  if (!runway) return unknownCheck(spec, 'The plan states no included cloud units.');
  const weight = HEALTH_CHECK_WEIGHTS[spec.id];
  if (runway.at === undefined) return { ...spec, status: 'pass', weight, items: [] };
  const instant = measured.value.tests.filter((test) => test.instant).reduce((sum, test) => sum + test.used, 0);
  const summary: EvidenceItem = {
    type: 'organization',
    id: 'cloud-units-runway',
    name: 'Cloud units',
    detail: `${units(runway.used)} used, ${units(runway.projected)} projected of ${units(runway.included)} included (${percent(runway.projected / runway.included)}): they run out on ${day(new Date(runway.at).toISOString())}; instant tests used ${units(instant)} (${percent(runway.used ? instant / runway.used : 0)})`,
  };
  return { ...spec, status: 'fail', weight, items: [summary, ...largest(measured.value, runway.projected)] };
}
