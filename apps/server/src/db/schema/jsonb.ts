import { customType } from 'drizzle-orm/pg-core';
import { wellFormedJson } from '@ce/platform-client';

/**
 * A jsonb column whose writes PostgreSQL always takes: a lone surrogate or U+0000 in any string (a customer's test
 * renamed so, an uploaded file) is stored as U+FFFD instead of failing the write (see well-formed.ts of the platform
 * client). Reads as drizzle's own jsonb: node-postgres and PGlite hand back the parsed value.
 */
const wellFormedJsonb = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => wellFormedJson(value),
  fromDriver: (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
});

export const jsonb = (name: string) => wellFormedJsonb(name);
