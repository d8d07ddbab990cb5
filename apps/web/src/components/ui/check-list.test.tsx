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

  it('draws every row of a short list, and the rows in view of a long one', () => {
    const { unmount } = render(<Picker />);
    const long = within(screen.getByRole('list', { name: 'Account groups' })).getAllByRole('checkbox').length;
    expect(long).toBeGreaterThan(5);
    expect(long).toBeLessThan(40);
    // "Group 42", "Group 420"... "Group 4299": 111 rows, past the threshold: only those in view.
    search('group 42');
    const rows = () => within(screen.getByRole('list', { name: 'Account groups' })).getAllByRole('checkbox');
    expect(rows().length).toBeLessThan(40);
    // "Group 420" and "Group 4200"... "Group 4209": 11 rows, all drawn.
    search('group 420');
    expect(rows()).toHaveLength(11);
    unmount();
  });

  it('in a read-only form (a disabled fieldset) is no scrolling box: neither way, so nothing unreachable scrolls', () => {
    render(
      <fieldset disabled>
        <CheckList
          items={groups.slice(0, 3)}
          itemKey={(group) => group.aid}
          renderItem={(group) => <span>{group.name}</span>}
          matches={byName}
          selected={new Set()}
          onSelectedChange={() => undefined}
          label="Agents"
          searchLabel="Search agents"
        />
      </fieldset>,
    );
    const box = screen.getByRole('list', { name: 'Agents' }).parentElement;
    // overflow-y: auto makes overflow-x auto too: a long agent's name would scroll the box sideways.
    expect(box?.className).toContain('[fieldset:disabled_&]:overflow-visible');
    expect(box?.className).toContain('[fieldset:disabled_&]:max-h-none!');
    expect(box?.className).toContain('[fieldset:disabled_&]:h-auto!');
  });

  it('names its buttons after what it lists, or leaves search and buttons to its page', () => {
    const few = groups.slice(0, 3);
    const { unmount } = render(
      <CheckList
        items={few}
        itemKey={(group) => group.aid}
        renderItem={(group) => <span>{group.name}</span>}
        matches={byName}
        selected={new Set()}
        onSelectedChange={() => undefined}
        label="Agents"
        noun="Agents"
        searchLabel="Search agents"
      />,
    );
    expect(screen.getByRole('button', { name: 'Select All Agents' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Deselect All Agents' })).toBeTruthy();
    unmount();
    render(
      <CheckList
        items={few}
        itemKey={(group) => group.aid}
        renderItem={(group) => <span>{group.name}</span>}
        matches={byName}
        search="group 1"
        controls={false}
        selected={new Set()}
        onSelectedChange={() => undefined}
        label="Tests in Acme"
        searchLabel="Filter tests"
      />,
    );
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Tests in Acme' })).getAllByRole('checkbox')).toHaveLength(1);
  });
});
