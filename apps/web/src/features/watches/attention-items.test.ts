import { describe, expect, it } from 'vitest';
import { itemsOf } from './attention-items';

const person = (...checkIds: string[]) => ({ checks: checkIds.map((checkId) => ({ checkId })) });

describe("a check's items in words on the customer page", () => {
  it('counts the items named by several checks too, so a failing check never reads "0 items"', () => {
    const people = [person('admin-logins', 'inactive-users'), person('admin-logins', 'inactive-users')];
    expect(itemsOf({ checkId: 'admin-logins', items: [] }, people)).toBe('2 items, all named by several checks');
    expect(itemsOf({ checkId: 'inactive-users', items: [{}, {}, {}] }, people)).toBe(
      '5 items, 2 of them named by several checks',
    );
    expect(itemsOf({ checkId: 'admin-logins', items: [] }, [person('admin-logins', 'x')])).toBe(
      '1 item, named by several checks',
    );
    expect(itemsOf({ checkId: 'alerts-active', items: [{}] }, people)).toBe('1 item');
  });
});
