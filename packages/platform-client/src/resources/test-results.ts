import { PlatformError } from '../errors.js';
import { type PlatformApiTestType } from '../schemas.js';
import { testResultsPageSchema, type PlatformTestResult } from '../measurement-schemas.js';
import { rangeQuery, type Caller, type TimeRange } from './caller.js';

/**
 * Where the results of each test type are (`/test-results/{testId}/{kind}`): agent-to-server and agent-to-agent
 * tests have the network results (agent-to-agent by `direction`); voice tests the RTP server's.
 */
export const TEST_RESULT_KINDS = {
  'agent-to-server': 'network',
  'agent-to-agent': 'network',
  'http-server': 'http-server',
  'page-load': 'page-load',
  'web-transactions': 'web-transactions',
  api: 'api',
  'ftp-server': 'ftp-server',
  'dns-server': 'dns-server',
  'dns-trace': 'dns-trace',
  dnssec: 'dnssec',
  'sip-server': 'sip-server',
  voice: 'rtp-server',
  bgp: 'bgp',
} as const satisfies Record<PlatformApiTestType, string>;

export interface TestResultsOptions {
  aid?: string;
  /** Without one, the platform answers the most recent round only. */
  range?: TimeRange;
  /** Agent-to-agent tests: which way the results were measured. */
  direction?: 'to-target' | 'from-target' | 'bidirectional';
  signal?: AbortSignal;
}

export const testResults = (caller: Caller) => ({
  /**
   * A test's results, round by round, streamed page by page (one page held at a time: a check aggregates as it
   * reads, its memory flat however many rounds there are). The platform's answer may start with a round that
   * began just before the range: it is left out (a result dated before the answer's `startDate`).
   */
  async *stream(
    type: PlatformApiTestType,
    testId: string,
    options: TestResultsOptions = {},
  ): AsyncGenerator<PlatformTestResult> {
    const kind = (TEST_RESULT_KINDS as Record<string, string>)[type];
    if (!kind) throw new PlatformError(400, `"${type}" is not a test type the platform knows.`);
    const path = `test-results/${encodeURIComponent(testId)}/${kind}`;
    const pages = caller.pages(path, testResultsPageSchema, {
      aid: options.aid,
      query: { ...rangeQuery(options.range), direction: options.direction },
      signal: options.signal,
      // Counted as read, never kept: a report that resumes reads its results again.
      unkept: true,
    });
    for await (const page of pages) {
      const from = options.range && page.startDate ? Date.parse(page.startDate) : Number.NEGATIVE_INFINITY;
      for (const result of page.results) if (!(Date.parse(result.date) < from)) yield result;
    }
  },
});
