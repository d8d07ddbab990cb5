import { describe, expect, it } from 'vitest';
import { createToastStore } from './toast-store';

function manualClock() {
  const timers: { at: number; run: () => void }[] = [];
  let now = 0;
  const schedule = ((run: () => void, delay: number) => {
    timers.push({ at: now + delay, run });
    return 0;
  }) as unknown as typeof setTimeout;
  const advance = (ms: number) => {
    now += ms;
    timers.filter((timer) => timer.at <= now).forEach((timer) => timer.run());
  };
  return { schedule, advance };
}

describe('toast store', () => {
  it.each([
    ['success', 5673],
    ['error', 4563],
    ['info', 4842],
    ['warning', 3963],
    ['default', 3765],
  ] as const)('keeps a %s toast for %i ms', (type, duration) => {
    const clock = manualClock();
    const store = createToastStore(clock.schedule);
    store.show(type, 'Hello');
    clock.advance(duration - 1);
    expect(store.getSnapshot()).toHaveLength(1);
    clock.advance(1);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('honours a given timeout and title, and tells subscribers', () => {
    const clock = manualClock();
    const store = createToastStore(clock.schedule);
    let notified = 0;
    store.subscribe(() => notified++);
    store.success('Logged out from all applications', { timeout: 3000, title: 'Bye' });
    expect(store.getSnapshot()[0]).toMatchObject({ type: 'success', title: 'Bye', timeout: 3000 });
    clock.advance(3000);
    expect(store.getSnapshot()).toEqual([]);
    expect(notified).toBe(2);
  });

  it("takes the session's toasts away when it ends, and leaves the others", () => {
    const store = createToastStore(manualClock().schedule);
    store.error("Acme: each failure and its reason are in the run's results.", {
      title: 'Create tests: 1 of 1 failed',
      endsWithSession: true,
    });
    store.info('The sign-in page is ready');
    store.endSession();
    expect(store.getSnapshot().map((toast) => toast.message)).toEqual(['The sign-in page is ready']);
  });
});
