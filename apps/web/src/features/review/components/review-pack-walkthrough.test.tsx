import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BULK_MESSAGES, REVIEW_MESSAGES } from '@ce/contract';
import { customers } from '../../../lib/customer';
import { createQueryClient } from '../../../lib/query-client';
import { setStorageOwner } from '../../../lib/user-storage';
import { toast } from '../../../components/ui/toast-store';
import { beside, preview, previews, renderPage, serve } from './review-pack-page.harness';

beforeEach(() => setStorageOwner('user-1'));
afterEach(() => {
  customers.clear({ everywhere: true });
  setStorageOwner(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** What a new user tripped on in the pack's page, each as they would notice it. */
describe("the review pack page, where a new user's walk-through tripped", () => {
  it('says what is wrong with a day beside its field once touched, and the preview says the same', async () => {
    const calls = serve();
    renderPage();
    await screen.findAllByTestId('slide');
    fireEvent.click(screen.getByRole('button', { name: 'Dates' }));
    await vi.waitFor(() => expect(previews(calls).at(-1)?.period.kind).toBe('dates'));
    // Untouched, the fields say nothing.
    expect(beside('First day')).toBe('');
    expect(beside('Last day')).toBe('');
    // A "to" before the "from": said beside the last day at once, and by the preview, before any "Build the pack".
    fireEvent.change(screen.getByLabelText('First day'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('Last day'), { target: { value: '2026-11-10' } });
    expect(beside('Last day')).toBe(REVIEW_MESSAGES.periodOrder);
    expect(beside('First day')).toBe('');
    const waits = screen.getByTestId('preview-waits');
    expect(waits.textContent).toBe(`${REVIEW_MESSAGES.previewWaits}${REVIEW_MESSAGES.periodOrder}`);
    // An emptied (or impossible) day: beside the field it is about.
    fireEvent.change(screen.getByLabelText('First day'), { target: { value: '' } });
    fireEvent.blur(screen.getByLabelText('First day'));
    expect(beside('First day')).toBe(REVIEW_MESSAGES.firstDayMissing);
    expect(screen.getByTestId('preview-waits').textContent).toContain(REVIEW_MESSAGES.firstDayMissing);
    fireEvent.change(screen.getByLabelText('First day'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Last day'), { target: { value: '2026-02-30' } });
    expect(beside('Last day')).toBe(REVIEW_MESSAGES.lastDayMissing);
    expect(screen.queryByTestId('build-problem')).toBeNull();
  });

  it('says a revoked token once, in place, as the platform refused it, with what to do', async () => {
    serve();
    const errors = vi.spyOn(toast, 'error');
    // The app's query client: a failed call's toast is raised there, so a second message would show.
    renderPage(createQueryClient());
    await screen.findAllByTestId('slide');
    const answered = globalThis.fetch;
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) =>
      path === '/api/account-groups'
        ? Response.json(
            { error: { code: 'invalid_platform_token', message: BULK_MESSAGES.invalidToken } },
            { status: 401 },
          )
        : answered(path, init),
    );
    fireEvent.change(screen.getByLabelText('Org Admin token'), {
      target: { value: 'sbx-revoked-acme-dce0efe96c32761bc6c9ac73' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Build the pack' }));
    await vi.waitFor(() => expect(screen.getByTestId('build-problem').textContent).toBe(REVIEW_MESSAGES.tokenRefused));
    expect(errors).not.toHaveBeenCalled();
  });

  it('moves the focus into the row "Add a goal" (a highlight, a next step) adds, so Space types there', async () => {
    serve();
    renderPage();
    const goals = await screen.findByTestId('narrative-goals');
    fireEvent.click(within(goals).getByRole('button', { name: 'Add a goal' }));
    expect(document.activeElement).toBe(within(goals).getByLabelText('Goal 2'));
    const highlights = screen.getByTestId('narrative-highlights');
    fireEvent.click(within(highlights).getByRole('button', { name: 'Add a highlight' }));
    expect(document.activeElement).toBe(within(highlights).getByLabelText('Highlight 1'));
    const steps = screen.getByTestId('narrative-next-steps');
    fireEvent.click(within(steps).getByRole('button', { name: 'Add a next step' }));
    expect(document.activeElement).toBe(within(steps).getByLabelText('Next step 1'));
  });

  it("titles the page with the customer's name the server knows, never its id", async () => {
    serve();
    renderPage();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Review pack');
    await screen.findAllByTestId('slide');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(`Review pack: ${preview().customer}`);
    expect(screen.queryByText(/9000/)).toBeNull();
  });

  it('shows an id nothing names as "no such customer", with the way back and no form', async () => {
    vi.stubGlobal('fetch', async (path: string) =>
      path === '/api/review-preview'
        ? Response.json(
            { error: { code: 'unknown_customer', message: REVIEW_MESSAGES.unknownCustomer('9000') } },
            { status: 404 },
          )
        : Response.json({ narrative: { goals: [], highlights: [], nextSteps: [] }, updatedAt: null, updatedBy: null }),
    );
    renderPage();
    const state = await screen.findByTestId('unknown-customer');
    expect(within(state).getByRole('heading', { level: 1 }).textContent).toBe(REVIEW_MESSAGES.unknownCustomerTitle);
    expect(state.textContent).toContain(REVIEW_MESSAGES.unknownCustomer('9000'));
    expect(within(state).getByRole('link', { name: REVIEW_MESSAGES.backToCustomers }).getAttribute('href')).toBe(
      '/home/customers',
    );
    expect(screen.queryByRole('button', { name: 'Build the pack' })).toBeNull();
    expect(screen.queryByLabelText('Org Admin token')).toBeNull();
  });
});
