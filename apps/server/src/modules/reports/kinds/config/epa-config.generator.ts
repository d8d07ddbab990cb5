import type {
  AgentSelector,
  EndpointAgent,
  EndpointDynamicTest,
  EndpointLabel,
  EndpointTest,
} from '@ce/platform-client';
import { recordOf } from '../../../../core/json.js';
import { collect, readable, required } from '../../../../report-kit/platform-reads.js';
import { escapeHtml, htmlDocument } from '../../../../report-kit/html.js';
import { mdSafe } from '../../../../report-kit/markdown.js';
import { streamWorkbook } from '../../../../report-kit/stream-workbook.js';
import { groupByGroupReport, type AccountGroup, type ReportContext } from '../../report-generator.js';
import { utcMinute } from '../../../../report-kit/dates.js';

/** HTML lists this many rows per table; the spreadsheet has them all. */
const SHOWN_ROWS = 200;

export interface EndpointGroup {
  accountGroupName: string;
  agents: EndpointAgent[];
  labels: EndpointLabel[];
  scheduled: EndpointTest[];
  dynamic: EndpointDynamicTest[];
}

/** The agent field each label filter key reads (v7 filter keys; the rest compare a field of the same name). */
const FILTER_FIELDS: Record<string, string> = {
  'agent-id': 'id',
  'agent-type': 'agentType',
  hostname: 'computerName',
  'public-network': 'publicIP',
};

const field = (agent: EndpointAgent, key: string) => {
  const value = agent[FILTER_FIELDS[key] ?? key];
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
};

/** Whether an agent matches a label: every filter (matchType and) or any (or); a filter is in or not-in its values. */
export function matchesLabel(agent: EndpointAgent, label: EndpointLabel): boolean {
  const filters = label.filters ?? [];
  if (!filters.length) return false;
  const results = filters.map((filter) => {
    const found = filter.values.includes(field(agent, filter.key));
    return filter.mode === 'not-in' ? !found : found;
  });
  return label.matchType === 'or' ? results.some(Boolean) : results.every(Boolean);
}

/** A test's agent selection in words, naming the labels and agents it refers to. */
export function describeSelector(selector: AgentSelector | undefined, group: EndpointGroup): string {
  if (!selector) return 'not stated';
  const most = selector.maxMachines ? ` (at most ${selector.maxMachines} machines)` : '';
  switch (selector.agentSelectorType) {
    case 'all-agents':
      return `All agents${most}`;
    case 'specific-agents':
      return `Agents: ${(selector.agents ?? [])
        .map((id) => group.agents.find((agent) => agent.id === id)?.name ?? id)
        .join(', ')}${most}`;
    case 'agent-labels':
      return `Labels: ${(selector.endpointAgentLabels ?? [])
        .map((id) => group.labels.find((label) => label.id === id)?.name ?? id)
        .join(', ')}${most}`;
    case 'agent-tags':
      return `Tags: ${(selector.tagIds ?? []).join(', ')}${most}`;
    default:
      return selector.agentSelectorType;
  }
}

const filtersText = (label: EndpointLabel) =>
  (label.filters ?? [])
    .map((filter) => `${filter.key} ${filter.mode === 'not-in' ? 'not in' : 'in'} [${filter.values.join(', ')}]`)
    .join(label.matchType === 'or' ? ' or ' : ' and ');

const location = (agent: EndpointAgent) => {
  const value = agent.location;
  if (typeof value === 'string') return value;
  return String(recordOf(value).locationName ?? '');
};

/** One account group's endpoint agents, labels, scheduled and dynamic tests, each list read once. */
export async function readEndpointGroup(context: ReportContext, group: AccountGroup): Promise<EndpointGroup> {
  const { aid, accountGroupName } = group;
  const read = await readable(
    `the endpoint agents and tests of ${accountGroupName}`,
    'View endpoint agents and tests',
    async () => {
      const [agents, labels, scheduled, dynamic] = await Promise.all([
        collect(context.platform.endpointAgents.list(aid, context.signal)),
        collect(context.platform.endpointLabels.list(aid, context.signal)),
        context.platform.endpointTests.listScheduled(aid, context.signal),
        context.platform.endpointTests.listDynamic(aid, context.signal),
      ]);
      return { accountGroupName, agents, labels, scheduled, dynamic };
    },
  );
  return required(read);
}

type Cell = string | number | boolean | Date | null;
interface Part<T> {
  title: string;
  columns: { header: string; width: number }[];
  items: (group: EndpointGroup) => T[];
  cells: (item: T, group: EndpointGroup) => Cell[];
}

/** A part as the workbook and the HTML read it: a group's count of items, and its first rows of cells. */
interface Table {
  title: string;
  columns: { header: string; width: number }[];
  count: (group: EndpointGroup) => number;
  rows: (group: EndpointGroup, limit?: number) => Cell[][];
}
const table = <T>(part: Part<T>): Table => ({
  title: part.title,
  columns: part.columns,
  count: (group) => part.items(group).length,
  rows: (group, limit) =>
    part
      .items(group)
      .slice(0, limit)
      .map((item) => part.cells(item, group)),
});

/** The report's four lists: one definition of their columns for the spreadsheet and the HTML. */
const PARTS: Table[] = [
  table<EndpointAgent>({
    title: 'Endpoint Agents',
    columns: [
      { header: 'Agent id', width: 38 },
      { header: 'Name', width: 26 },
      { header: 'Computer', width: 18 },
      { header: 'Platform', width: 10 },
      { header: 'OS', width: 18 },
      { header: 'Version', width: 10 },
      { header: 'Status', width: 10 },
      { header: 'License', width: 12 },
      { header: 'Last seen', width: 18 },
      { header: 'Location', width: 20 },
      { header: 'Labels', width: 30 },
    ],
    items: (group) => group.agents,
    cells: (agent, group) => [
      agent.id,
      agent.name ?? '',
      agent.computerName ?? '',
      agent.platform ?? '',
      agent.osVersion ?? '',
      agent.version ?? '',
      agent.status ?? '',
      agent.licenseType ?? '',
      agent.lastSeen ? new Date(agent.lastSeen) : null,
      location(agent),
      group.labels
        .filter((label) => matchesLabel(agent, label))
        .map((label) => label.name)
        .join(', '),
    ],
  }),
  table<EndpointLabel>({
    title: 'Labels',
    columns: [
      { header: 'Label id', width: 26 },
      { header: 'Label', width: 26 },
      { header: 'Match', width: 8 },
      { header: 'Filters', width: 50 },
      { header: 'Agents matching', width: 10 },
    ],
    items: (group) => group.labels,
    cells: (label, group) => [
      label.id,
      label.name,
      label.matchType ?? '',
      filtersText(label),
      group.agents.filter((agent) => matchesLabel(agent, label)).length,
    ],
  }),
  table<EndpointTest>({
    title: 'Scheduled Tests',
    columns: [
      { header: 'Test id', width: 10 },
      { header: 'Test', width: 36 },
      { header: 'Type', width: 16 },
      { header: 'Target', width: 36 },
      { header: 'Protocol', width: 8 },
      { header: 'Interval (s)', width: 10 },
      { header: 'Enabled', width: 8 },
      { header: 'Agent selection', width: 50 },
    ],
    items: (group) => group.scheduled,
    cells: (test, group) => {
      return [
        test.testId,
        test.testName,
        test.type,
        String(test.url ?? test.server ?? ''),
        String(test.protocol ?? ''),
        test.interval ?? null,
        test.isEnabled !== false,
        describeSelector(test.agentSelectorConfig, group),
      ];
    },
  }),
  table<EndpointDynamicTest>({
    title: 'Dynamic Tests',
    columns: [
      { header: 'Test id', width: 10 },
      { header: 'Test', width: 30 },
      { header: 'Application', width: 16 },
      { header: 'Interval (s)', width: 10 },
      { header: 'Enabled', width: 8 },
      { header: 'Agent selection', width: 50 },
    ],
    items: (group) => group.dynamic,
    cells: (test, group) => [
      test.testId,
      test.testName,
      test.application ?? '',
      test.interval ?? null,
      test.isEnabled !== false,
      describeSelector(test.agentSelectorConfig, group),
    ],
  }),
];

export function epaWorkbook(organization: string, groups: EndpointGroup[], now: Date): Promise<Buffer> {
  return streamWorkbook((sheet) => {
    const summary = sheet('Summary', [
      { header: 'Account group', width: 34 },
      { header: 'Endpoint agents', width: 14 },
      { header: 'Enabled', width: 10 },
      { header: 'Labels', width: 10 },
      { header: 'Scheduled tests', width: 14 },
      { header: 'Dynamic tests', width: 14 },
    ]);
    for (const group of groups)
      summary.row([
        group.accountGroupName,
        group.agents.length,
        group.agents.filter((agent) => agent.status === 'enabled').length,
        group.labels.length,
        group.scheduled.length,
        group.dynamic.length,
      ]);
    summary.row([`${organization}, generated ${utcMinute(now)}`]);
    summary.done();

    for (const part of PARTS) {
      const writer = sheet(part.title, [{ header: 'Account group', width: 30 }, ...part.columns]);
      for (const group of groups) for (const row of part.rows(group)) writer.row([group.accountGroupName, ...row]);
      writer.done();
    }
  }, now);
}

const shown = (cell: Cell) =>
  cell instanceof Date
    ? cell.toISOString().slice(0, 10)
    : typeof cell === 'boolean'
      ? cell
        ? 'yes'
        : 'no'
      : String(cell ?? '');

function partHtml(part: Table, group: EndpointGroup): string {
  const count = part.count(group);
  const heading = `<h3>${escapeHtml(part.title)} (${count})</h3>`;
  if (!count) return `${heading}<p>None.</p>`;
  return `${heading}<table><thead><tr>${part.columns.map((column) => `<th>${escapeHtml(column.header)}</th>`).join('')}</tr></thead><tbody>
${part
  .rows(group, SHOWN_ROWS)
  .map((cells) => `<tr>${cells.map((cell) => `<td>${escapeHtml(shown(cell))}</td>`).join('')}</tr>`)
  .join(
    '\n',
  )}</tbody></table>${count > SHOWN_ROWS ? `<p class="meta">${count - SHOWN_ROWS} more in the spreadsheet.</p>` : ''}`;
}

export function epaHtml(organization: string, groups: EndpointGroup[], now: Date): string {
  return htmlDocument(
    `EPA configuration: ${organization}`,
    `<h1>EPA Config Report</h1>
<p class="meta">${escapeHtml(organization)} · ${groups.length} account group(s) · ${utcMinute(now)}</p>
${groups.map((group) => `<h2>${escapeHtml(group.accountGroupName)}</h2>\n${PARTS.map((part) => partHtml(part, group)).join('\n')}`).join('\n')}`,
  );
}

/** Endpoint agents, their labels (with filters and the agents they match) and scheduled and dynamic endpoint tests. */
export const epaConfigGenerator = groupByGroupReport({
  kind: 'epa-config',
  read: readEndpointGroup,
  async write({ organization, now }, groups) {
    const sum = (pick: (group: EndpointGroup) => number) => groups.reduce((total, group) => total + pick(group), 0);
    return {
      summary: mdSafe`**EPA Config Report** for **${organization.name}** is ready: ${sum((group) => group.agents.length)} endpoint agent(s), ${sum((group) => group.labels.length)} label(s), ${sum((group) => group.scheduled.length)} scheduled and ${sum((group) => group.dynamic.length)} dynamic test(s) in ${groups.length} account group(s).`,
      files: {
        xlsx: await epaWorkbook(organization.name, groups, now),
        html: epaHtml(organization.name, groups, now),
      },
    };
  },
});
