import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customers } from '../../lib/customer';
import { rememberToken } from '../../lib/recent-tokens';
import { setStorageOwner } from '../../lib/user-storage';
import { TokenField } from './token-field';

beforeEach(() => setStorageOwner('user-1'));
afterEach(() => {
  customers.clear();
  setStorageOwner(null);
});

describe('the token field', () => {
  it('offers the recent tokens as chips, and no longer a token the platform refused meanwhile', () => {
    for (const token of ['first-token-aaaaaaaa', 'second-token-bbbbbbbb']) rememberToken('bulk-tests', token);
    render(<TokenField recent={{ list: 'bulk-tests', pick: () => undefined }} onChange={() => undefined} />);
    const chips = () =>
      within(screen.getByRole('group', { name: 'Recent tokens' }))
        .getAllByRole('button')
        .map((chip) => chip.textContent);
    expect(chips()).toEqual(['…bbbbbbbb', '…aaaaaaaa']);
    // Refused while the page is open (in this tool or another): its chip goes at once.
    act(() => void customers.refused('second-token-bbbbbbbb'));
    expect(chips()).toEqual(['…aaaaaaaa']);
  });
});
