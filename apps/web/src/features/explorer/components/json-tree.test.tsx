import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { JsonTree } from './json-tree';

describe('JsonTree', () => {
  it('gives every fold a target at least 24 px high (WCAG 2.2 target size), its text unchanged', () => {
    const { container } = render(<JsonTree value={{ accountGroups: [{ aid: 1, _links: { self: 'x' } }] }} />);
    const summaries = [...container.querySelectorAll('summary')];
    expect(summaries.map((summary) => summary.textContent)).toEqual([
      '{1}',
      'accountGroups: [1]',
      '0: {2}',
      '_links: {1}',
    ]);
    for (const summary of summaries) expect(summary.className.split(' ')).toContain('min-h-6');
    expect(screen.getByText('"x"')).toBeTruthy();
  });
});
