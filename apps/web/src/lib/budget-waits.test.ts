import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BudgetWait } from '@ce/contract';
import { createBudgetWaitStore, newRequestId } from './budget-waits';

describe('the budget-wait store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const answers = (...said: (BudgetWait | undefined)[]) => {
    const asked: string[] = [];
    const ask = vi.fn(async (requestId: string) => {
      asked.push(requestId);
      return said.shift();
    });
    return { ask, asked };
  };

  it('asks nothing for a request answered within a second', async () => {
    const { ask } = answers();
    const store = createBudgetWaitStore(ask);
    const end = store.watch('request-1', () => undefined);
    await vi.advanceTimersByTimeAsync(900);
    end();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ask).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toEqual([]);
  });

  it('says whose budget and about how long while the server says it waits, and forgets it when it ends', async () => {
    const { ask, asked } = answers(
      { waiting: true, organizationName: 'Acme Corporation', seconds: 12, reading: null },
      { waiting: true, organizationName: 'Acme Corporation', seconds: 11, reading: null },
      { waiting: false, organizationName: null, seconds: null, reading: null },
    );
    const store = createBudgetWaitStore(ask);
    const cancel = vi.fn();
    const end = store.watch('request-2', cancel);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.getSnapshot().map((wait) => wait.line)).toEqual([
      "Waiting for Acme Corporation's API budget: about 12 s",
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.getSnapshot().map((wait) => wait.line)).toEqual([
      "Waiting for Acme Corporation's API budget: about 11 s",
    ]);
    store.getSnapshot()[0]?.cancel();
    expect(cancel).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.getSnapshot()).toEqual([]);
    end();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(asked).toEqual(['request-2', 'request-2', 'request-2']);
  });

  it('says how far a request has read, and its wait at the budget beside it', async () => {
    const reading = (done: number, total: number) => ({ noun: 'rule', done, total });
    const { ask } = answers(
      { waiting: false, organizationName: null, seconds: null, reading: reading(40, 380) },
      { waiting: true, organizationName: 'Acme Corporation', seconds: 3, reading: reading(140, 380) },
    );
    const store = createBudgetWaitStore(ask);
    const end = store.watch('request-4', () => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.getSnapshot()[0]).toMatchObject({ line: 'Reading rule 40 of 380', reading: reading(40, 380) });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.getSnapshot()[0]?.line).toBe(
      "Reading rule 140 of 380 · Waiting for Acme Corporation's API budget: about 3 s",
    );
    end();
  });

  it("names the customer's budget when the server does not know the organization's name", async () => {
    const { ask } = answers({ waiting: true, organizationName: null, seconds: null, reading: null });
    const store = createBudgetWaitStore(ask);
    const end = store.watch('request-3', () => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.getSnapshot()[0]?.line).toBe("Waiting for the customer's API budget");
    end();
    expect(store.getSnapshot()).toEqual([]);
  });

  it('counts open dialogs: the page leaves the line to the dialog while one is open', () => {
    const store = createBudgetWaitStore(answers().ask);
    const close = store.openDialog();
    expect(store.dialogOpen()).toBe(true);
    close();
    expect(store.dialogOpen()).toBe(false);
  });

  it('names requests as the server accepts them, never twice', () => {
    const ids = new Set(Array.from({ length: 100 }, () => newRequestId()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
  });
});
