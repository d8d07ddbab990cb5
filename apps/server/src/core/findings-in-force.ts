import type { HealthCheck } from '@ce/contract';

/**
 * A customer's findings as every list counts them (decision 0031): My customers, the customer page and a watch's
 * findings read the latest health check's findings through `findingsInForce`, so their open and waived agree. Pure.
 */

/** A check as a health check found it or a watch run kept it: what the count reads of it. */
export interface CheckLike {
  id: string;
  title: string;
  status: HealthCheck['status'];
  items: readonly { type: string; id: string; name: string; detail: string }[];
}

/** A waiver as a run applies it: a check's item (`type:id`), or the whole check (null). */
export interface Waived {
  checkId: string;
  itemKey: string | null;
}

/** One open finding: a check's item the latest health check found and no waiver in force takes out. */
export interface OpenFinding<Id extends string = string> {
  checkId: Id;
  check: string;
  status: CheckLike['status'];
  /** The item's type and id ("user:123"): what a waiver of this item names. */
  itemKey: string;
  name: string;
  detail: string;
}

const waives = (waiver: Waived, checkId: string, itemKey: string) =>
  waiver.checkId === checkId && (waiver.itemKey === null || waiver.itemKey === itemKey);

/**
 * The open findings of a run's kept checks, and how many are waived: an item that a waiver in force names (or
 * whose whole check it waives) is waived, not open, whenever the waiver was made (before the run or since). `waived`
 * counts the findings taken out (a whole check's items each), so open and waived add up to what the health check
 * found.
 */
export function findingsInForce<Check extends CheckLike>(
  checks: readonly Check[] | null,
  waivers: readonly Waived[],
): { open: OpenFinding<Check['id']>[]; waived: number } {
  const found = (checks ?? [])
    .filter((check) => check.status === 'warn' || check.status === 'fail')
    .flatMap((check) =>
      check.items.map((item): OpenFinding<Check['id']> => ({
        checkId: check.id,
        check: check.title,
        status: check.status,
        itemKey: `${item.type}:${item.id}`,
        name: item.name,
        detail: item.detail,
      })),
    );
  const open = found.filter((finding) => !waivers.some((waiver) => waives(waiver, finding.checkId, finding.itemKey)));
  return { open, waived: found.length - open.length };
}
