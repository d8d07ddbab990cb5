import { HEALTH_CHECK_WEIGHTS, type EvidenceItem, type HealthCheck, type PersonChanges } from '@ce/contract';
import { day, plural, type CheckSpec, type HealthInput, unknownCheck } from './input.js';
import { MEASURED_LIMITS as L } from './measured-limits.js';

/** "14 changes in the activity log (Test updated 6, Alert rule updated 3), 4 test versions; last on 2025-12-03". */
export function personWords(person: PersonChanges): string {
  const what = person.what.map((entry) => `${entry.event} ${entry.count}`).join(', ');
  const parts = [
    ...(person.events ? [`${plural(person.events, 'change')} in the activity log${what ? ` (${what})` : ''}`] : []),
    ...(person.testVersions ? [plural(person.testVersions, 'test version')] : []),
  ];
  return `${parts.join(', ')}; last on ${day(person.lastAt)}`;
}

/**
 * Who changed what in the results window, by person: informational (weight 0, never graded), so it passes
 * whenever it was read and lists the people as its evidence.
 */
export function changesByPerson(input: HealthInput): HealthCheck {
  const days = L.resultDays;
  const spec: CheckSpec = {
    id: 'changes-by-person',
    title: 'Who changed what',
    threshold: 'informational: not graded',
    definition: `The changes of the last ${days} days by person: the platform's activity log (/audit-user-events: what was created, updated, deleted or assigned; sign-ins and views are not changes) and the versions of the tests those changes name (/tests/{id}/history), each person as the platform names them.`,
    remediation: 'Nothing to fix: it says who to ask about a change the other checks found.',
  };
  const changes = input.measured?.changes;
  if (!changes) return unknownCheck(spec, 'Who changed what was not read.');
  if (!changes.ok) return unknownCheck(spec, changes.reason);
  const items = changes.value.map((person): EvidenceItem => ({
    type: 'user',
    id: person.person,
    name: person.person,
    detail: personWords(person),
  }));
  return { ...spec, status: 'pass', weight: HEALTH_CHECK_WEIGHTS[spec.id], items };
}
