import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ReportTool } from './report-tool';

describe('the report tool page', () => {
  it("shows a button's badge in solid colours (dark text on white: 4.5:1 and more), not white on a see-through white", () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ReportTool
          title="Account health"
          description="How the account is doing."
          buttons={[{ mission: 'ahc-v7', label: 'AHC v7', badge: 'Beta' }]}
        />
      </QueryClientProvider>,
    );
    const badge = screen.getByText('Beta');
    expect(badge.closest('button')?.textContent).toBe('AHC v7Beta');
    const classes = badge.className.split(' ');
    expect(classes).toEqual(expect.arrayContaining(['bg-white', 'text-brand-800']));
    expect(classes.filter((name) => name.includes('/'))).toEqual([]);
  });
});
