import type { KeptCheck, WaiverNotice } from './watch-changes.js';
import type { Waived } from '../../core/findings-in-force.js';

export { findingsInForce, type OpenFinding, type Waived } from '../../core/findings-in-force.js';

/** A waiver in force as the server holds it: what it waives, and who made it, why and until when. */
export interface WaiverInForce extends Waived {
  id: string;
  itemName: string | null;
  reason: string;
  expiresAt: Date;
  createdBy: string | null;
  createdByEmail: string | null;
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

/**
 * The checks as a watch counts them: waived items left out, and a check waived whole, or left with no open item
 * by its waivers, passing. Answers the waived findings' keys too.
 */
export function withoutWaived(
  checks: KeptCheck[],
  waivers: Waived[],
): { checks: KeptCheck[]; waived: string[]; waivedItems: number } {
  const waived: string[] = [];
  let waivedItems = 0;
  const counted = checks.map((check) => {
    if (check.status === 'pass' || check.status === 'unknown') return check;
    if (waivers.some((waiver) => waiver.checkId === check.id && waiver.itemKey === null)) {
      waived.push(`${check.id}:*`);
      waivedItems += check.items.length;
      return { ...check, status: 'pass' as const, items: [] };
    }
    const keys = new Set(waivers.filter((waiver) => waiver.checkId === check.id).map((waiver) => waiver.itemKey));
    const items = check.items.filter((item) => !keys.has(itemKey(item)));
    for (const item of check.items) if (keys.has(itemKey(item))) waived.push(`${check.id}:${itemKey(item)}`);
    waivedItems += check.items.length - items.length;
    if (items.length === check.items.length) return check;
    return { ...check, items, status: items.length === 0 ? ('pass' as const) : check.status };
  });
  return { checks: counted, waived, waivedItems };
}

const itemKey = (item: { type: string; id: string }) => `${item.type}:${item.id}`;

/** A waived key as `withoutWaived` answers it ("inactive-users:user:7", "alerts-active:*"), as what it waives. */
export function waivedOfKey(key: string): Waived {
  const at = key.indexOf(':');
  const itemKeyOf = key.slice(at + 1);
  return { checkId: key.slice(0, at), itemKey: itemKeyOf === '*' ? null : itemKeyOf };
}
