import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommunityList } from './community-list';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the community gallery', () => {
  it("says the spec's words when nobody has cloned a dashboard yet, and how to start it", async () => {
    const fetch = vi.fn(async (_url: string) => Response.json({ dashboards: [] }));
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <CommunityList canReview={false} />
      </QueryClientProvider>,
    );
    expect((await screen.findByText('No Community Dashboards Yet')).tagName).toBe('P');
    expect(screen.getByText('Clone a dashboard from a customer account group to start the gallery.')).toBeTruthy();
    expect(String(fetch.mock.calls[0]?.[0])).toContain('/api/community-dashboards?search=&sort=votes');
  });
});
