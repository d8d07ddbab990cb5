import type { KeptCheck, Waived, WaiverNotice } from './watch-changes.js';

/**
 * A customer's findings as every list counts them (decision 0031): My customers, the customer page and a watch's
 * findings read the latest health check's findings through `findingsInForce`, so their open and waived agree. Pure.
 */

/** A waiver in force as the server holds it: what it waives, and who made it, why and until when. */
export interface WaiverInForce extends Waived {
  id: string;
  itemName: string | null;
  reason: string;
  expiresAt: Date;
  createdBy: string | null;
  createdByEmail: string | null;
}

/** One open finding: a check's item the latest health check found and no waiver in force takes out. */
export interface OpenFinding<Id extends string = string> {
  checkId: Id;
  check: string;
  status: KeptCheck['status'];
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
export function findingsInForce<Check extends KeptCheck>(
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

/**
 * The waivers of a watch's findings made by someone other than its owner: those in force that waive a finding of
 * this run or of the previous one (`waivedKeys`, as `withoutWaived` answers them), and of those the ones the
 * previous run did not say yet (`said`: its `othersWaivers`). Each is said once, with who, why and until when.
 */
export function waiversOfOthers(
  waivers: readonly WaiverInForce[],
  ownerId: string,
  waivedKeys: readonly string[],
  said: readonly string[],
  titles: ReadonlyMap<string, string>,
): { waivedByOthers: WaiverNotice[]; othersWaivers: string[] } {
  const keys = new Set(waivedKeys);
  const ofOthers = waivers.filter(
    (waiver) => waiver.createdBy !== ownerId && keys.has(`${waiver.checkId}:${waiver.itemKey ?? '*'}`),
  );
  const told = new Set(said);
  return {
    waivedByOthers: ofOthers
      .filter((waiver) => !told.has(waiver.id))
      .map((waiver) => ({
        check: titles.get(waiver.checkId) ?? waiver.checkId,
        name: waiver.itemKey === null ? null : (waiver.itemName ?? waiver.itemKey),
        by: waiver.createdByEmail,
        reason: waiver.reason,
        until: waiver.expiresAt.toISOString(),
      })),
    othersWaivers: ofOthers.map((waiver) => waiver.id),
  };
}
