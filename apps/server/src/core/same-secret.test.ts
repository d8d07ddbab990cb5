import * as crypto from 'node:crypto';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Metrics } from './metrics.js';
import { sameSecret } from './same-secret.js';

vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});
const compared = vi.mocked(crypto.timingSafeEqual);

afterEach(() => compared.mockClear());

describe('sameSecret', () => {
  it('compares secrets of any length in constant time, as digests of one length', () => {
    const expected = 'scrape-me-if-you-can-0123456789';
    for (const given of ['', 'x', expected.slice(0, -1), `${expected}!`, 'y'.repeat(10_000)]) {
      compared.mockClear();
      expect(sameSecret(given, expected), given.slice(0, 40)).toBe(false);
      expect(compared, given.slice(0, 40)).toHaveBeenCalledTimes(1);
      const [left, right] = compared.mock.calls[0] ?? [];
      expect([(left as Buffer).length, (right as Buffer).length]).toEqual([32, 32]);
    }
    expect(sameSecret(expected, expected)).toBe(true);
  });

  it('is what /metrics compares its bearer token with, whatever the length presented', async () => {
    const app = Fastify();
    const noDatabase = { executeSql: async () => ({ rows: [] }) };
    new Metrics(noDatabase, 'test').register(app, 'scrape-me-if-you-can-0123456789');
    for (const authorization of ['Bearer x', 'Bearer scrape-me-if-you-can-0123456789-and-more', 'B']) {
      compared.mockClear();
      const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(compared, authorization).toHaveBeenCalledTimes(1);
    }
    await app.close();
  });
});
