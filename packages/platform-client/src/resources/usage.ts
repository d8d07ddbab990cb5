import { quotasSchema, usageSchema } from '../schemas.js';
import { type Caller } from './caller.js';

export const usage = (caller: Caller) => ({
  get: (options: { aid?: string; expand?: string[]; signal?: AbortSignal } = {}) =>
    caller.request(usageSchema, 'usage', 'usage', {
      aid: options.aid,
      query: options.expand?.length ? { expand: options.expand } : {},
      signal: options.signal,
    }),
  quotas: (signal?: AbortSignal) => caller.request(quotasSchema, 'quotas', 'quotas', { signal }),
});
