import { quotasSchema, usageSchema } from '../schemas.js';
import { enterpriseAgentUnitsSchema, testUnitsSchema } from '../measurement-schemas.js';
import { type Caller } from './caller.js';

/** A period of units: start and end dates (ISO-8601 UTC); the current billing period when absent. */
export interface UnitsPeriod {
  startDate: string;
  endDate: string;
}
const periodQuery = (period: UnitsPeriod | undefined) =>
  period ? { startDate: period.startDate, endDate: period.endDate } : {};

export const usage = (caller: Caller) => ({
  get: (options: { aid?: string; expand?: string[]; signal?: AbortSignal } = {}) =>
    caller.request(usageSchema, 'usage', 'usage', {
      aid: options.aid,
      query: options.expand?.length ? { expand: options.expand } : {},
      signal: options.signal,
    }),
  quotas: (signal?: AbortSignal) => caller.request(quotasSchema, 'quotas', 'quotas', { signal }),
  /** Units by test for a period, page by page (organizations on usage-based pricing only; 403 otherwise). */
  testUnits: (options: { aid?: string; period?: UnitsPeriod; signal?: AbortSignal } = {}) =>
    caller.paginate('usage/units/tests', 'breakdowns', testUnitsSchema, {
      aid: options.aid,
      query: periodQuery(options.period),
      signal: options.signal,
    }),
  /** Units by enterprise agent and account group for a period (usage-based pricing only; takes no `aid`). */
  enterpriseAgentUnits: (options: { period?: UnitsPeriod; signal?: AbortSignal } = {}) =>
    caller.paginate('usage/units/enterprise-agents', 'breakdowns', enterpriseAgentUnitsSchema, {
      query: periodQuery(options.period),
      signal: options.signal,
    }),
});
