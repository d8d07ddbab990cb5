import type { EvidenceItem, HealthChange, HealthCheck, HealthFindings } from '@ce/contract';

const itemKey = (item: EvidenceItem) => `${item.type}:${item.id}`;

/**
 * What changed since the previous run of the same kind for the same organization: each evidence item
 * new or resolved (by its type and id: a detail such as "60 days ago" moves every day and is no change),
 * and each check whose status changed. A check unknown in either
 * run compares nothing item by item (its items were not read).
 */
export function changesSince(previous: Pick<HealthFindings, 'checks'> | null, checks: HealthCheck[]): HealthChange[] {
  if (!previous) return [];
  const before = new Map(previous.checks.map((check) => [check.id, check]));
  const changes: HealthChange[] = [];
  for (const check of checks) {
    const earlier = before.get(check.id);
    // An informational check (weight 0, such as who changed what) lists people, not findings: nothing to compare.
    if (!earlier || check.weight === 0) continue;
    if (earlier.status !== check.status)
      changes.push({
        checkId: check.id,
        change: 'changed',
        detail: `${check.title}: ${earlier.status} before, ${check.status} now`,
      });
    if (earlier.status === 'unknown' || check.status === 'unknown') continue;
    const then = new Map(earlier.items.map((item) => [itemKey(item), item]));
    const now = new Map(check.items.map((item) => [itemKey(item), item]));
    for (const [key, item] of now)
      if (!then.has(key))
        changes.push({ checkId: check.id, change: 'new', item, detail: `${item.name}: ${item.detail}` });
    for (const [key, item] of then)
      if (!now.has(key))
        changes.push({
          checkId: check.id,
          change: 'resolved',
          item,
          detail: `${item.name}: no longer ${check.title.toLowerCase()}`,
        });
  }
  return changes;
}
