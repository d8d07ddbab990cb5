import { describe, expect, it } from 'vitest';
import { customerState, type StateFacts } from './watch-portfolio.service.js';

const facts = (changes: Partial<StateFacts>): StateFacts => ({
  score: 85,
  change: null,
  openFindings: 0,
  failingFindings: 0,
  pausedWatches: 0,
  drift: 0,
  commonRegressions: [],
  ran: true,
  ...changes,
});

describe("My customers' colour and reasons", () => {
  it('is red when the score fell by 10 or more, the fall said first', () => {
    expect(
      customerState(facts({ change: { by: -12, since: 'since last week' }, openFindings: 3, failingFindings: 1 })),
    ).toEqual({ state: 'red', reasons: ['score −12 since last week', '3 open findings (1 failing)'] });
  });

  it('is amber for a paused watch or drift, in words', () => {
    expect(customerState(facts({ pausedWatches: 1, drift: 2 }))).toEqual({
      state: 'amber',
      reasons: ['1 watch paused', '2 changes at the customer since the backup before'],
    });
  });

  it('is green with nothing open, and says a customer not run yet', () => {
    expect(customerState(facts({}))).toEqual({ state: 'green', reasons: ['nothing open'] });
    expect(customerState(facts({ score: null, ran: false }))).toEqual({ state: 'green', reasons: ['no run yet'] });
  });
});
