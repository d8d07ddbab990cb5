import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { CheckList } from './check-list';

interface Group {
  aid: string;
  name: string;
}
const groups: Group[] = Array.from({ length: 5000 }, (_, index) => ({ aid: String(index), name: `Group ${index}` }));
const byName = (group: Group, needle: string) => group.name.toLowerCase().includes(needle);

function Picker({ initial = [] as string[] }) {
  const [selected, setSelected] = useState<Set<string>>(new Set(initial));
  return (
    <CheckList
      items={groups}
      itemKey={(group) => group.aid}
      renderItem={(group) => <span>{group.name}</span>}
      matches={byName}
      selected={selected}
      onSelectedChange={setSelected}
      label="Account groups"
      searchLabel="Search account groups"
      emptyText="No account group matches."
    />
  );
}

const count = () => screen.getByTestId('picker-count').textContent;
const search = (text: string) =>
  fireEvent.change(screen.getByLabelText('Search account groups'), { target: { value: text } });

describe('CheckList', () => {
  // jsdom lays nothing out: give every element the size a browser would give the 16rem list.
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 256 });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 320 });
  });

  it('acts on the filtered rows only: Select All, Invert and Deselect All', () => {
    render(<Picker initial={['4999']} />);
    search('group 12');
    // "Group 12", "Group 120"... "Group 1299": 1 + 10 + 100.
    expect(count()).toBe('1 selected · 111 shown of 5000');
    fireEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect(count()).toBe('112 selected · 111 shown of 5000');
    fireEvent.click(screen.getByRole('button', { name: 'Invert' }));
    expect(count()).toBe('1 selected · 111 shown of 5000');
    fireEvent.click(screen.getByRole('button', { name: 'Invert' }));
    fireEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(count()).toBe('1 selected · 111 shown of 5000');
  });

  it('toggles one row by its checkbox, and says when nothing matches', () => {
    render(<Picker />);
    search('Group 42');
    fireEvent.click(
      within(screen.getByRole('list', { name: 'Account groups' })).getByRole('checkbox', { name: 'Group 42' }),
    );
    expect(count()).toBe('1 selected · 111 shown of 5000');
    search('nothing like this');
    expect(screen.getByText('No account group matches.')).toBeTruthy();
  });
});
