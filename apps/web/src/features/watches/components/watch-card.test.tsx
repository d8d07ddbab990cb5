import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WATCH_CARD, type Watch, type WatchRun } from '@ce/contract';
import { dateTime } from '../../../lib/dates';
import { nextRunWords, WatchCard } from './watch-card';
import { aWatch } from './watch.fixture';

const watch: Watch = aWatch();

const run = (progress: WatchRun['progress'], status: WatchRun['status'] = 'running'): WatchRun => ({
  id: 'run-1',
  watchId: watch.id,
  dueAt: '2026-11-27T07:00:00Z',
  trigger: 'now',
  status,
  error: null,
  score: null,
  reportId: null,
  delivery: { status: 'pending', error: null },
  message: null,
  moved: [],
  openFindings: null,
  waivedFindings: null,
  progress,
  createdAt: '2026-11-27T07:00:00Z',
  finishedAt: null,
});

beforeEach(() => {
  document.cookie = 'ce_csrf=test-csrf';
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * The card over a server with no run yet, whose "Run now" answers only when `answer` is called; the runs it lists
 * afterwards are `listed()`; the card is `shown`'s.
 */
function renderCard(listed: () => WatchRun[], shown: Watch = watch) {
  let answer: (run: WatchRun) => void = () => undefined;
  let asked = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === `/api/watches/${watch.id}/runs` && init?.method === 'POST') {
        asked = true;
        return new Promise<Response>((resolve) => {
          answer = (made) => resolve(Response.json(made, { status: 201 }));
        });
      }
      if (url === `/api/watches/${watch.id}/runs`) return Response.json({ runs: asked ? listed() : [] });
      return Response.json({});
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <WatchCard watch={shown} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { answer: (made: WatchRun) => answer(made) };
}

describe("a watch's card while a run starts", () => {
  it('shows the run starting at once, never "No run yet.", then its parts\' progress', async () => {
    const underWay = run({ health: { status: 'running', done: 2, total: 3 }, backups: { done: 1, total: 2 } });
    const server = renderCard(() => [underWay]);
    const runs = screen.getByRole('region', { name: 'Runs' });
    expect(await within(runs).findByText('No run yet.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Run now' }));
    expect(await within(runs).findByText('Starting…')).toBeTruthy();
    expect(within(runs).queryByText('No run yet.')).toBeNull();
    // The run's trigger is said in words no one takes for a second button.
    expect(within(runs).getByText('Asked for now')).toBeTruthy();
    expect(within(runs).queryByText('Run now')).toBeNull();

    server.answer(run({ health: null, backups: { done: 0, total: 2 } }, 'queued'));
    expect(await within(runs).findByText('Health check: 2 of 3 steps · Backups: 1 of 2 account groups')).toBeTruthy();
    expect(within(runs).queryByText('No run yet.')).toBeNull();
  });

  it('says a watch builds last month’s review pack', () => {
    renderCard(() => [], { ...watch, monthlyReviewPack: true });
    const card = screen.getByRole('article', { name: 'Watch of Production, Staging' });
    expect(within(card).getByText('Review pack')).toBeTruthy();
    expect(within(card).getByText('Last month’s, built on the first run of each month (in My Reports)')).toBeTruthy();
  });

  it('says nothing of a review pack on a watch without the duty', () => {
    renderCard(() => []);
    expect(screen.queryByText('Review pack')).toBeNull();
  });
});

describe("a watch's next run", () => {
  const paris = {
    ...watch,
    schedule: { ...watch.schedule, timeZone: 'Europe/Paris' },
    nextRunAt: '2026-12-07T06:00:00Z',
  };

  it('names the reader’s zone when the watch keeps another one, so 18:30 in Paris is not read as 17:30 there', () => {
    const shown = dateTime('2026-12-07T06:00:00Z');
    expect(nextRunWords(paris, 'UTC')).toBe(WATCH_CARD.nextRunInReaderZone(shown, 'UTC'));
    expect(nextRunWords(paris, 'America/New_York')).toBe(WATCH_CARD.nextRunInReaderZone(shown, 'America/New_York'));
  });

  it('says the time alone when the zones tell the same clock, and a dash for a paused watch', () => {
    const shown = dateTime('2026-12-07T06:00:00Z');
    expect(nextRunWords(paris, 'Europe/Paris')).toBe(shown);
    expect(nextRunWords({ ...paris, schedule: { ...watch.schedule, timeZone: 'Etc/UTC' } }, 'UTC')).toBe(shown);
    expect(nextRunWords({ ...paris, nextRunAt: null }, 'UTC')).toBe('—');
  });
});
