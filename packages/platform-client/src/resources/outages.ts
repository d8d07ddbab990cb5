import { networkOutageDetailSchema, outagesResponseSchema } from '../review-schemas.js';
import type { Caller, TimeRange } from './caller.js';

export interface OutageFilter {
  aid?: string;
  range: TimeRange;
  /** `with-affected-test`: only the outages that touched the account group's tests; `all`: every outage seen. */
  scope?: 'all' | 'with-affected-test';
  providerName?: string[];
  applicationName?: string[];
  interfaceNetwork?: string[];
  signal?: AbortSignal;
}

export const outages = (caller: Caller) => ({
  /**
   * Internet Insights outages in a range, by the document's filter (a POST that only reads: it is repeated like a
   * read). The answer is one list: the document says pagination is still to come.
   */
  filter: async (filter: OutageFilter) => {
    const body = {
      ...filter.range,
      ...(filter.scope ? { outageScope: filter.scope } : {}),
      ...(filter.providerName?.length ? { providerName: filter.providerName } : {}),
      ...(filter.applicationName?.length ? { applicationName: filter.applicationName } : {}),
      ...(filter.interfaceNetwork?.length ? { interfaceNetwork: filter.interfaceNetwork } : {}),
    };
    const answer = await caller.request(outagesResponseSchema, 'internet-insights/outages/filter', 'outages', {
      method: 'POST',
      body,
      aid: filter.aid,
      signal: filter.signal,
      idempotent: true,
    });
    return answer.outages;
  },
  /** A network outage with the tests, agents, domains and locations it touched. */
  network: (outageId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(
      networkOutageDetailSchema,
      `internet-insights/outages/net/${encodeURIComponent(outageId)}`,
      'network outage',
      { aid, signal },
    ),
});
