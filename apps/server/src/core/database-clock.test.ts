import { describe, expect, it } from 'vitest';
import { DatabaseClock } from './database-clock.js';

describe('DatabaseClock', () => {
  it("answers the database's time on an instance whose clock is 10 minutes ahead, half the round trip taken off", async () => {
    let local = Date.parse('2025-03-01T21:38:37.000Z');
    const database = Date.parse('2025-03-01T21:28:37.000Z');
    // The database answers 40 ms after it was asked, its clock read halfway.
    const clock = new DatabaseClock(
      async () => {
        local += 40;
        return database + 20;
      },
      () => local,
    );
    await clock.sample();
    expect(clock.now().toISOString()).toBe('2025-03-01T21:28:37.040Z');
    local += 60_000;
    expect(clock.now().toISOString()).toBe('2025-03-01T21:29:37.040Z');
  });

  it('keeps the last difference while the database does not answer', async () => {
    let answer: () => Promise<number> = async () => 1_000_000;
    const clock = new DatabaseClock(
      () => answer(),
      () => 4_000_000,
    );
    await clock.sample();
    answer = () => Promise.reject(new Error('connect ECONNREFUSED'));
    await clock.start();
    expect(clock.now().getTime()).toBe(1_000_000);
    clock.stop();
  });
});
