import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChangeSetProgress } from './change-set-progress';

const totals = (changes: Partial<Record<'total' | 'pending' | 'done' | 'skipped' | 'failed', number>>) => ({
  total: 0,
  pending: 0,
  done: 0,
  skipped: 0,
  failed: 0,
  ...changes,
});

/** The bar as a user sees it: how full, in which colour, and what a screen reader says. */
function shown(changes: Parameters<typeof totals>[0]) {
  const { unmount } = render(<ChangeSetProgress label="Restore progress" totals={totals(changes)} />);
  const bar = screen.getByRole('progressbar', { name: 'Restore progress' });
  const fill = bar.firstElementChild as HTMLElement;
  const seen = {
    value: bar.getAttribute('aria-valuenow'),
    text: bar.getAttribute('aria-valuetext'),
    width: fill.style.width,
    colour: fill.className.match(/\bbg-[a-z]+-\d+\b/)?.[0],
  };
  unmount();
  return seen;
}

describe('ChangeSetProgress', () => {
  it('is empty when nothing is planned, not full and green', () => {
    expect(shown({})).toMatchObject({ value: '0', text: 'Nothing planned', width: '0%' });
  });

  it('is full and red when the only item failed', () => {
    expect(shown({ total: 1, failed: 1 })).toEqual({
      value: '100',
      text: '1 of 1 handled: 1 failed',
      width: '100%',
      colour: 'bg-red-600',
    });
  });

  it('shows the share handled, neutral while under way and amber once something failed', () => {
    expect(shown({ total: 4, pending: 3, done: 1 })).toEqual({
      value: '25',
      text: '1 of 4 handled',
      width: '25%',
      colour: 'bg-sky-600',
    });
    expect(shown({ total: 4, pending: 2, done: 1, failed: 1 })).toMatchObject({ width: '50%', colour: 'bg-amber-500' });
  });

  it('ends green when nothing failed, amber when some did and some were done', () => {
    expect(shown({ total: 3, done: 2, skipped: 1 })).toEqual({
      value: '100',
      text: '3 of 3 handled',
      width: '100%',
      colour: 'bg-green-600',
    });
    expect(shown({ total: 3, done: 2, failed: 1 })).toEqual({
      value: '100',
      text: '3 of 3 handled: 1 failed',
      width: '100%',
      colour: 'bg-amber-500',
    });
  });
});
