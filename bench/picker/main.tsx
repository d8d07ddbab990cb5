import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  AccountGroupPicker,
  filterGroups,
  type PickerGroup,
} from '../../apps/web/src/components/ui/account-group-picker';
import '../../apps/web/src/app/index.css';

const COUNT = Number(new URLSearchParams(location.search).get('count') ?? 10_000);
const REGIONS = ['Production', 'Staging', 'EMEA', 'APAC', 'Americas', 'Data Center', 'Branch', 'SaaS', 'Lab', 'Retail'];
const groups: PickerGroup[] = Array.from({ length: COUNT }, (_, index) => ({
  aid: String(100_000 + index),
  accountGroupName: `Customer ${String(index).padStart(5, '0')} - ${REGIONS[index % REGIONS.length]}`,
}));

/** The product's picker. */
function Virtualised() {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [search, setSearch] = useState('');
  return (
    <AccountGroupPicker
      groups={groups}
      selected={selected}
      onSelectedChange={setSelected}
      search={search}
      onSearchChange={setSearch}
    />
  );
}

/** The baseline: the same filter, every match rendered (what a plain checkbox list does). */
function Plain() {
  const [search, setSearch] = useState('');
  const filtered = filterGroups(groups, search);
  return (
    <div>
      <input
        type="search"
        aria-label="Search account groups"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div data-testid="account-group-list" style={{ height: '16rem', overflowY: 'auto' }}>
        <ul aria-label="Account groups">
          {filtered.map((group) => (
            <li key={group.aid}>
              <label>
                <input type="checkbox" /> {group.accountGroupName}
              </label>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

const variant = new URLSearchParams(location.search).get('variant');
const root = document.getElementById('root');
if (root) createRoot(root).render(variant === 'plain' ? <Plain /> : <Virtualised />);

/**
 * Types each query a letter at a time. Each sample runs from the input event to just after the next
 * frame is painted (an animation frame, then a posted message): the usual measure of keystroke to paint.
 */
async function measurePicker(queries: string[]): Promise<{ samples: number[]; shown: number }> {
  const input = document.querySelector<HTMLInputElement>('input[type="search"]');
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  if (!input || !setValue) throw new Error('no search box');
  const painted = () =>
    new Promise<void>((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
    );
  const type = async (value: string) => {
    const started = performance.now();
    setValue.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await painted();
    return performance.now() - started;
  };
  const samples: number[] = [];
  for (const query of queries) {
    for (let length = 1; length <= query.length; length++) samples.push(await type(query.slice(0, length)));
    await type('');
  }
  await type('customer 099');
  return { samples, shown: document.querySelectorAll('[data-testid="account-group-list"] li').length };
}

(window as unknown as { measurePicker: typeof measurePicker }).measurePicker = measurePicker;
