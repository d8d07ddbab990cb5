import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REVIEW_MESSAGES } from '@ce/contract';
import { customers } from '../../../lib/customer';
import { setStorageOwner } from '../../../lib/user-storage';
import { TOKEN, GROUPS, FOOTER, preview, KEPT, serve, renderPage, beside, previews } from './review-pack-page.harness';

beforeEach(() => setStorageOwner('user-1'));
afterEach(() => {
  customers.clear({ everywhere: true });
  setStorageOwner(null);
  vi.unstubAllGlobals();
});

describe("a customer's review pack page", () => {
  it('previews the last full month up to now: every slide whole with its footer, and what the build reads later', async () => {
    const calls = serve();
    renderPage();
    const slides = await screen.findAllByTestId('slide');
    expect(slides.map((slide) => within(slide).getByRole('heading').textContent)).toEqual([
      'Acme Corporation: business review',
      'Availability of the key tests, week over week',
      'Agents offline or outdated',
      'Outages and events',
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Review pack: Acme Corporation');
    // No customer chosen: no token goes with it (a watch owner's or a Super User's preview).
    expect(previews(calls)[0]).toEqual({
      organizationId: '9000',
      period: { kind: 'month', from: '2026-11-01', to: '2026-11-30' },
      cutOff: '2026-12-02T13:07:30.000Z',
    });
    expect(within(slides[1] as HTMLElement).getByTestId('slide-footer').textContent).toBe(FOOTER);
    // The chart says every value in words, a week without rounds too.
    expect(
      within(slides[1] as HTMLElement)
        .getByRole('img')
        .getAttribute('aria-label'),
    ).toBe(
      'Availability of the key tests, week over week, percent of rounds without an error: Payroll HTTP: 2 Nov 99.2, 9 Nov 91; Branch DNS: 2 Nov 100, 9 Nov no value',
    );
    const table = within(slides[2] as HTMLElement).getByRole('table', { name: 'Agents offline or outdated' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['AgentStateSince', 'ea-offline-9doffline2026-11-23', 'ea-old-1outdated2026-10-02']);
    expect(screen.getByTestId('preview-period').textContent).toBe(
      'November 2026, figures up to 2 Dec 2026, 13:07 UTC.',
    );
    expect(screen.getByText(/^Read from the platform when the pack is built:/).textContent).toBe(
      'Read from the platform when the pack is built: outages and events that touched the customer’s tests; evidence links (test snapshots).',
    );
    // The proposed key tests, worst first, are followed until the person chooses; then the preview follows the choice.
    const keyTests = screen.getByRole('list', { name: 'Key tests' });
    expect(
      within(keyTests)
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).checked),
    ).toEqual([true, true]);
    expect(previews(calls)).toHaveLength(1);
    fireEvent.click(within(keyTests).getByLabelText(/Branch DNS/));
    await vi.waitFor(() => expect(previews(calls).at(-1)?.keyTests).toEqual(['t-1']));
    expect(screen.getByTestId('key-tests-said').textContent).toBe(
      '1 of at most 8 chosen, worst first as the measurements propose.',
    );
  });

  it('asks for the quarter, or dates, and says a period or cut-off it cannot take before asking', async () => {
    const calls = serve();
    renderPage();
    await screen.findAllByTestId('slide');
    fireEvent.click(screen.getByRole('button', { name: 'Quarter' }));
    await vi.waitFor(() => expect(previews(calls).at(-1)?.period.from).toBe('2026-07-01'));
    expect(previews(calls).at(-1)?.period.kind).toBe('quarter');
    expect((screen.getByLabelText('Quarter') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe(
      'Q3 2026 (Jul–Sep)',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dates' }));
    await vi.waitFor(() => expect(previews(calls).at(-1)?.period.kind).toBe('dates'));
    const asked = previews(calls).length;
    fireEvent.change(screen.getByLabelText('First day'), { target: { value: '2026-12-10' } });
    expect(beside('Last day')).toBe(REVIEW_MESSAGES.periodOrder);
    fireEvent.change(screen.getByLabelText('Last day'), { target: { value: '2026-12-12' } });
    expect(beside('First day')).toBe(REVIEW_MESSAGES.periodInFuture);
    fireEvent.change(screen.getByLabelText('First day'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('Cut-off (UTC)'), { target: { value: '2026-11-10T09:00' } });
    expect(beside('Cut-off (UTC)')).toBe(REVIEW_MESSAGES.cutOffBeforePeriod);
    // Only the period that could be covered was asked for (its own cut-off is asked for next).
    await vi.waitFor(() => expect(previews(calls).length).toBe(asked + 1));
    expect(previews(calls).at(-1)?.period).toEqual({ kind: 'dates', from: '2026-11-20', to: '2026-12-12' });
    fireEvent.change(screen.getByLabelText('Cut-off (UTC)'), { target: { value: '2026-11-30T18:00' } });
    await vi.waitFor(() => expect(previews(calls).at(-1)?.cutOff).toBe('2026-11-30T18:00:00.000Z'));
    expect(previews(calls).at(-1)?.period.to).toBe('2026-12-12');
    expect(screen.getByTestId('cut-off').textContent).toMatch(/^Figures up to 30 Nov 2026, 18:00 UTC/);
  });

  it('edits the kept narrative in place and saves it for the next pack', async () => {
    const calls = serve();
    renderPage();
    const goals = await screen.findByTestId('narrative-goals');
    expect((within(goals).getByLabelText('Goal 1') as HTMLInputElement).value).toBe('Cut the time to clear');
    expect(screen.getByTestId('narrative-said').textContent).toMatch(/^Kept since .+, by Tara Tam\.$/);
    fireEvent.click(screen.getByRole('button', { name: 'Add a highlight' }));
    fireEvent.change(screen.getByLabelText('Highlight 1'), { target: { value: 'No outage missed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a next step' }));
    fireEvent.change(screen.getByLabelText('Next step 1'), { target: { value: 'Review the noisy rules' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the narrative' }));
    expect(screen.getByTestId('narrative-said').textContent).toBe(
      'Each next step needs what is to be done, who owns it and when it is due.',
    );
    fireEvent.change(screen.getByLabelText('Owner of step 1'), { target: { value: 'Dana Admin' } });
    fireEvent.change(screen.getByLabelText('Due date of step 1'), { target: { value: '2027-01-15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the narrative' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('narrative-said').textContent).toBe(REVIEW_MESSAGES.narrativeSaved),
    );
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      organizationId: '9000',
      narrative: {
        goals: ['Cut the time to clear'],
        highlights: ['No outage missed'],
        nextSteps: [{ step: 'Review the noisy rules', owner: 'Dana Admin', due: '2027-01-15' }],
      },
    });
    expect((screen.getByRole('button', { name: 'Save the narrative' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("builds the pack with the chosen customer's token and groups, then offers its files", async () => {
    customers.choose({ token: TOKEN, organizationId: '9000', organizationName: 'Acme Corporation', groups: GROUPS });
    const calls = serve();
    renderPage();
    await screen.findAllByTestId('slide');
    expect(screen.getByTestId('customer-token').textContent).toContain('Acme Corporation · token …89abcdef');
    fireEvent.click(screen.getByRole('button', { name: 'Build the pack' }));
    const files = await screen.findByTestId('pack-files', {}, { timeout: 4000 });
    expect(calls.find((call) => call.path === '/api/reports' && call.method === 'POST')?.body).toEqual({
      kind: 'review-pack',
      token: TOKEN,
      organization: { id: '9000', name: 'Acme Corporation' },
      accountGroups: [
        { aid: '11', accountGroupName: 'Acme - EMEA Branches' },
        { aid: '12', accountGroupName: 'Acme - Production' },
      ],
      options: {
        period: { kind: 'month', from: '2026-11-01', to: '2026-11-30' },
        cutOff: '2026-12-02T13:07:30.000Z',
        keyTests: ['t-1', 't-2'],
        narrative: KEPT.narrative,
      },
    });
    expect(
      within(files)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Download review-acme.pptx', '/api/reports/r-1/artifacts/a-1'],
      ['Download review-acme.pdf', '/api/reports/r-1/artifacts/a-2'],
    ]);
    expect(screen.getByTestId('pack-status').textContent).toBe('done');
    expect(screen.getByRole('link', { name: 'Open in My Reports' }).getAttribute('href')).toBe(
      '/home/reports?report=r-1',
    );
    // The narrative and the preview were asked with the customer's token, in the body; nothing was saved.
    expect(calls.find((call) => call.path === '/api/review-narrative/read')?.body).toEqual({
      organizationId: '9000',
      token: TOKEN,
    });
    expect(previews(calls)[0]?.token).toBe(TOKEN);
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('saves an edited narrative before it requests the pack, so the pack and the kept one say the same', async () => {
    customers.choose({ token: TOKEN, organizationId: '9000', organizationName: 'Acme Corporation', groups: GROUPS });
    const calls = serve();
    renderPage();
    await screen.findAllByTestId('slide');
    fireEvent.click(screen.getByRole('button', { name: 'Add a highlight' }));
    fireEvent.change(screen.getByLabelText('Highlight 1'), { target: { value: 'No outage missed' } });
    expect(screen.getByTestId('narrative-said').textContent).toBe('Not saved yet: “Build the pack” saves it first.');
    fireEvent.click(screen.getByRole('button', { name: 'Build the pack' }));
    await screen.findByTestId('pack-files', {}, { timeout: 4000 });
    const narrative = { goals: ['Cut the time to clear'], highlights: ['No outage missed'], nextSteps: [] };
    const saved = calls.findIndex((call) => call.method === 'PUT');
    const requested = calls.findIndex((call) => call.path === '/api/reports' && call.method === 'POST');
    expect(calls[saved]?.body).toEqual({ organizationId: '9000', token: TOKEN, narrative });
    expect(saved).toBeGreaterThan(-1);
    expect(requested).toBeGreaterThan(saved);
    expect((calls[requested]?.body as { options: { narrative: unknown } }).options.narrative).toEqual(narrative);
    expect(screen.getByTestId('narrative-said').textContent).toMatch(/^Kept since .+, by Tara Tam\.$/);
  });

  it('says who may read the narrative when the server refuses it, and then sends none with the pack', async () => {
    const calls = serve();
    const served = globalThis.fetch;
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) =>
      path === '/api/review-narrative/read'
        ? Response.json(
            { error: { code: 'not_tied_to_organization', message: REVIEW_MESSAGES.notTied } },
            { status: 403 },
          )
        : served(path, init),
    );
    renderPage();
    expect((await screen.findByTestId('narrative-closed')).textContent).toBe(REVIEW_MESSAGES.notTied);
    await screen.findAllByTestId('slide');
    fireEvent.change(screen.getByLabelText('Org Admin token'), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Build the pack' }));
    await screen.findByTestId('pack-files', {}, { timeout: 4000 });
    const requested = calls.find((call) => call.path === '/api/reports' && call.method === 'POST');
    expect((requested?.body as { options: Record<string, unknown> }).options).toEqual({
      period: { kind: 'month', from: '2026-11-01', to: '2026-11-30' },
      cutOff: '2026-12-02T13:07:30.000Z',
      keyTests: ['t-1', 't-2'],
    });
  });

  it('says a token of another organization does not reach the customer, and sends nothing', async () => {
    customers.choose({
      token: TOKEN,
      organizationId: '7000',
      organizationName: 'Globex',
      groups: [{ aid: '70', accountGroupName: 'Globex', organizationId: '7000', organizationName: 'Globex' }],
    });
    const calls = serve();
    renderPage();
    await screen.findAllByTestId('slide');
    // The field does not offer another customer's token: one is pasted.
    expect(screen.queryByTestId('customer-token')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Build the pack' }));
    expect((await screen.findByTestId('build-problem')).textContent).toBe(
      'Paste the customer’s Org Admin token, or choose the customer in the navbar.',
    );
    vi.stubGlobal('fetch', async (path: string) =>
      path === '/api/account-groups'
        ? Response.json({
            accountGroups: [
              { aid: '70', accountGroupName: 'Globex', organizationId: '7000', organizationName: 'Globex' },
            ],
          })
        : Response.json(preview()),
    );
    fireEvent.change(screen.getByLabelText('Org Admin token'), {
      target: { value: 'globex-token-0123456789abcdef012345' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Build the pack' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('build-problem').textContent).toBe(
        'This token does not reach Acme Corporation: paste a token of Acme Corporation’s organization.',
      ),
    );
    expect(calls.some((call) => call.path === '/api/reports')).toBe(false);
  });
});
