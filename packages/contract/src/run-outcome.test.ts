import { describe, expect, it } from 'vitest';
import { runOutcome, statusOutcome } from './run-outcome.js';

const totals = (done: number, failed: number) => ({ done, failed });

describe('runOutcome: the one rule the run panel, its toast and the customer page say', () => {
  it('a finished run with not one item done and some failed failed ("0 of 1 created")', () => {
    expect(runOutcome({ status: 'done', totals: totals(0, 1) })).toBe('failed');
  });
  it('some done and some failed: done with failures; all done, or nothing to do: done', () => {
    expect(runOutcome({ status: 'done', totals: totals(2, 1) })).toBe('done-with-failures');
    expect(runOutcome({ status: 'done', totals: totals(3, 0) })).toBe('done');
    expect(runOutcome({ status: 'done', totals: totals(0, 0) })).toBe('done');
  });
  it('reversed by an undo: undone; stopped: failed; under way: its status', () => {
    expect(runOutcome({ status: 'done', totals: totals(1, 0), undoneBy: 'undo' })).toBe('undone');
    expect(runOutcome({ status: 'failed', totals: totals(1, 0) })).toBe('failed');
    expect(runOutcome({ status: 'queued', totals: totals(0, 0) })).toBe('queued');
    expect(runOutcome({ status: 'running', totals: totals(0, 1) })).toBe('running');
  });
  it("a push's sending is under way", () => {
    expect(statusOutcome('sending')).toBe('running');
    expect(statusOutcome('done')).toBe('done');
  });
});
