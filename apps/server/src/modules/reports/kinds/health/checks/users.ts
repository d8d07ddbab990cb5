import { type EvidenceItem, type HealthCheck, type HealthProfile } from '@ce/contract';
import { ageInDays, day, type CheckSpec, unknownCheck, finished, type HealthUser, type HealthInput } from './input.js';

function signInDetail(user: HealthUser, now: Date): string {
  const age = ageInDays(user.lastLogin, now);
  return age === undefined
    ? `never signed in${user.dateRegistered ? ` (registered ${day(user.dateRegistered)})` : ''}`
    : `last signed in ${day(user.lastLogin ?? '')} (${Math.floor(age)} days ago)`;
}

/** Not signed in for more than `days` days; never signed in and registered more than `days` days ago. */
export function isAway(user: HealthUser, days: number, now: Date): boolean {
  const age = ageInDays(user.lastLogin, now);
  if (age !== undefined) return age > days;
  const registered = ageInDays(user.dateRegistered, now);
  return registered === undefined || registered > days;
}

export function inactiveUsers(input: HealthInput, profile: HealthProfile): HealthCheck {
  const days = profile.inactiveUsersDays;
  const spec: CheckSpec = {
    id: 'inactive-users',
    title: 'Inactive users',
    threshold: `${days} days`,
    definition: `Users of the selected account groups whose last sign-in (the platform's lastLogin) is more than ${days} days ago, or who never signed in and were registered more than ${days} days ago.`,
    remediation:
      'Remove users who no longer need access, or ask them to sign in; unused accounts keep permissions nobody watches.',
  };
  if (!input.users.ok) return unknownCheck(spec, input.users.reason);
  const items = input.users.value
    .filter((user) => isAway(user, days, input.now))
    .map((user): EvidenceItem => ({
      type: 'user',
      id: user.uid,
      name: `${user.name} <${user.email}>`,
      detail: signInDetail(user, input.now),
      accountGroup: user.accountGroups.join(', '),
    }));
  return finished(spec, items, 'warn');
}

export function loginFrequency(input: HealthInput, profile: HealthProfile): HealthCheck {
  const days = profile.loginFrequencyDays;
  const spec: CheckSpec = {
    id: 'login-frequency',
    title: 'Login frequency of administrators',
    threshold: `${days} days`,
    definition: `Users holding a role with management permissions (Organization Admin, Account Admin or a custom role that manages) who have not signed in within ${days} days: administrator accounts should be used at least that often, or given up.`,
    remediation:
      'Downgrade administrators who do not sign in to a role without management permissions, or remove them.',
  };
  if (!input.users.ok) return unknownCheck(spec, input.users.reason);
  const items = input.users.value
    .filter((user) => user.admin && isAway(user, days, input.now))
    .map((user): EvidenceItem => ({
      type: 'user',
      id: user.uid,
      name: `${user.name} <${user.email}>`,
      detail: `${user.roles.join(', ')}: ${signInDetail(user, input.now)}`,
      accountGroup: user.accountGroups.join(', '),
    }));
  return finished(spec, items, 'fail');
}
