import { describe, expect, it } from 'vitest';
import { mapPool } from './map-pool.js';

describe('mapPool', () => {
  it('never runs more than the limit at once, and answers in the order of the items', async () => {
    let running = 0;
    let most = 0;
    const answers = await mapPool(
      Array.from({ length: 50 }, (_, index) => index),
      4,
      async (item) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return item * 2;
      },
    );
    expect(most).toBe(4);
    expect(answers).toEqual(Array.from({ length: 50 }, (_, index) => index * 2));
  });

  it('stops starting work after a failure and throws it', async () => {
    const started: number[] = [];
    await expect(
      mapPool(
        Array.from({ length: 30 }, (_, index) => index),
        3,
        async (item) => {
          started.push(item);
          await new Promise((resolve) => setImmediate(resolve));
          if (item === 2) throw new Error('403 Forbidden');
          return item;
        },
      ),
    ).rejects.toThrow('403 Forbidden');
    expect(started.length).toBeLessThan(10);
  });

  it('answers an empty list at once', async () => {
    expect(await mapPool([], 3, async () => 1)).toEqual([]);
  });
});
