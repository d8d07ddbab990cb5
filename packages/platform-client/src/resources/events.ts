import { eventDetailSchema, eventSchema } from '../measurement-schemas.js';
import { rangeQuery, type Caller, type TimeRange } from './caller.js';

export const events = (caller: Caller) => ({
  /** Events in a range (the platform requires one), page by page; `ongoing` for the active ones only. */
  list: (options: { aid?: string; range: TimeRange; ongoing?: boolean; max?: number; signal?: AbortSignal }) =>
    caller.paginate('events', 'events', eventSchema, {
      aid: options.aid,
      query: { ...rangeQuery(options.range), ongoing: options.ongoing, max: options.max },
      signal: options.signal,
    }),
  /** One event with what it touched (tests, agents, targets) and its cause. */
  get: (eventId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(eventDetailSchema, `events/${encodeURIComponent(eventId)}`, 'event', { aid, signal }),
});
