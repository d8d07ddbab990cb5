import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CheckList } from '../../apps/web/src/components/ui/check-list';
import '../../apps/web/src/app/index.css';

const COUNT = Number(new URLSearchParams(location.search).get('count') ?? 10_000);
const REGIONS = ['Production', 'Staging', 'EMEA', 'APAC', 'Americas', 'Data Center', 'Branch', 'SaaS', 'Lab', 'Retail'];
interface PickerGroup {
  aid: string;
  accountGroupName: string;
}
const byName = (group: PickerGroup, needle: string) => group.accountGroupName.toLowerCase().includes(needle);
/** Case-insensitive substring on the account group's name (spec section 5). */
const filterGroups = (all: PickerGroup[], search: string) => {
  const needle = search.trim().toLowerCase();
  return needle ? all.filter((group) => byName(group, needle)) : all;
};
const groups: PickerGroup[] = Array.from({ length: COUNT }, (_, index) => ({
  aid: String(100_000 + index),
  accountGroupName: `Customer ${String(index).padStart(5, '0')} - ${REGIONS[index % REGIONS.length]}`,
}));

/** The product's checklist, as the report wizard uses it. */
function Virtualised() {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  return (
    <div data-testid="account-group-list">
      <CheckList
        items={groups}
        itemKey={(group) => group.aid}
        renderItem={(group) => <span className="truncate">{group.accountGroupName}</span>}
        matches={byName}
        selected={selected}
        onSelectedChange={setSelected}
        label="Account groups"
        searchLabel="Search account groups"
      />
    </div>
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
