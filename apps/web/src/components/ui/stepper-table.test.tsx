import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { DataTable, VIRTUAL_ROWS_ABOVE, type ColumnDef } from './data-table';
import { Stepper } from './stepper';

describe('Stepper', () => {
  it('marks the current step and the done ones, and goes only to reachable steps', () => {
    const go = vi.fn();
    render(
      <Stepper
        current={2}
        onGo={go}
        steps={[
          { label: 'Authentication', done: true, reachable: true },
          { label: 'Account Groups', done: false, reachable: true },
          { label: 'Test Configuration', done: false, reachable: false },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'Progress' });
    expect(
      within(list)
        .getByRole('button', { name: /Account Groups/ })
        .getAttribute('aria-current'),
    ).toBe('step');
    expect(within(list).getByLabelText('completed')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: /Authentication/ }));
    fireEvent.click(within(list).getByRole('button', { name: /Test Configuration/ }));
    expect(go.mock.calls).toEqual([[1]]);
  });
});

interface Row {
  name: string;
  count: number;
}
const columns: ColumnDef<Row, unknown>[] = [
  { accessorKey: 'name', header: 'Name' },
  { accessorKey: 'count', header: 'Count' },
];
const names = () => screen.getAllByTestId('row').map((row) => row.querySelector('td')?.textContent);

describe('DataTable', () => {
  const data: Row[] = [
    { name: 'Bravo', count: 2 },
    { name: 'Alpha', count: 3 },
    { name: 'Charlie', count: 1 },
  ];

  it('sorts by a click on a header, ascending then descending, and says so', () => {
    render(
      <DataTable
        data={data}
        columns={columns}
        label="Runs"
        empty="No runs yet."
        rowProps={() => ({ 'data-testid': 'row' })}
      />,
    );
    expect(names()).toEqual(['Bravo', 'Alpha', 'Charlie']);
    const header = screen.getByRole('button', { name: 'Count' });
    fireEvent.click(header);
    // Numbers sort largest first on the first click, as TanStack Table does by default.
    expect(names()).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(screen.getByRole('columnheader', { name: 'Count' }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(header);
    expect(names()).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(screen.getByRole('columnheader', { name: 'Count' }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['Alpha', 'Bravo', 'Charlie']);
  });

  it('filters every column from its search box, and says why it is empty', () => {
    render(
      <DataTable
        data={data}
        columns={columns}
        label="Runs"
        empty="No runs yet."
        filterLabel="Filter runs"
        rowProps={() => ({ 'data-testid': 'row' })}
      />,
    );
    fireEvent.change(screen.getByLabelText('Filter runs'), { target: { value: 'char' } });
    expect(names()).toEqual(['Charlie']);
    fireEvent.change(screen.getByLabelText('Filter runs'), { target: { value: 'zulu' } });
    expect(screen.getByText('No runs yet.')).toBeTruthy();
  });

  it('draws only the rows in view of a long table with a height, and every row of a short one', () => {
    // jsdom lays nothing out: give the scroller the size a browser would.
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 370 });
    onTestFinished(() => {
      Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
    });
    const many: Row[] = Array.from({ length: VIRTUAL_ROWS_ABOVE * 5 }, (_, index) => ({
      name: `Row ${index}`,
      count: index,
    }));
    const { unmount } = render(
      <DataTable
        data={many}
        columns={columns}
        label="Runs"
        empty="No runs yet."
        maxHeight={370}
        rowProps={() => ({ 'data-testid': 'row' })}
      />,
    );
    const drawn = names();
    expect(drawn[0]).toBe('Row 0');
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn.length).toBeLessThan(40);
    unmount();
    const few = many.slice(0, VIRTUAL_ROWS_ABOVE);
    render(
      <DataTable
        data={few}
        columns={columns}
        label="Runs"
        empty="No runs yet."
        maxHeight={370}
        rowProps={() => ({ 'data-testid': 'row' })}
      />,
    );
    expect(names()).toHaveLength(VIRTUAL_ROWS_ABOVE);
  });
});
