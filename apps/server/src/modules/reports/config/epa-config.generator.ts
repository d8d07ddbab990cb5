import type {
  AgentSelector,
  EndpointAgent,
  EndpointDynamicTest,
  EndpointLabel,
  EndpointTest,
} from '@ce/platform-client';
import { AppError } from '../../../platform/errors.js';
import type { Readable } from '../health/checks.js';
import { readable } from '../health/read.js';
import { escapeHtml, htmlDocument } from '../render/html.js';
import { escapeMarkdown } from '../render/markdown.js';
import { streamWorkbook } from '../render/stream-workbook.js';
import { fileStem, XLSX_TYPE, type ReportGenerator } from '../report-generator.js';

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
  const value = (agent as Record<string, unknown>)[FILTER_FIELDS[key] ?? key];
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
  const value = (agent as { location?: unknown }).location;
  if (typeof value === 'string') return value;
  const named = value as { locationName?: string } | undefined;
  return named?.locationName ?? '';
};

export async function readEndpointGroup(
  context: Parameters<ReportGenerator>[0],
  group: { aid: string; accountGroupName: string },
): Promise<Readable<EndpointGroup>> {
  const { aid, accountGroupName } = group;
  const collect = async <T>(items: AsyncIterable<T>) => {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  };
  return readable(
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
}

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
    summary.row([`${organization}, generated ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`]);
    summary.done();

    const agents = sheet('Endpoint Agents', [
      { header: 'Account group', width: 30 },
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
    ]);
    for (const group of groups)
      for (const agent of group.agents)
        agents.row([
          group.accountGroupName,
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
        ]);
    agents.done();

    const labels = sheet('Labels', [
      { header: 'Account group', width: 30 },
      { header: 'Label id', width: 26 },
      { header: 'Label', width: 26 },
      { header: 'Match', width: 8 },
      { header: 'Filters', width: 50 },
      { header: 'Agents matching', width: 10 },
    ]);
    for (const group of groups)
      for (const label of group.labels)
        labels.row([
          group.accountGroupName,
          label.id,
          label.name,
          label.matchType ?? '',
          filtersText(label),
          group.agents.filter((agent) => matchesLabel(agent, label)).length,
        ]);
    labels.done();

    const scheduled = sheet('Scheduled Tests', [
      { header: 'Account group', width: 30 },
      { header: 'Test id', width: 10 },
      { header: 'Test', width: 36 },
      { header: 'Type', width: 16 },
      { header: 'Target', width: 36 },
      { header: 'Protocol', width: 8 },
      { header: 'Interval (s)', width: 10 },
      { header: 'Enabled', width: 8 },
      { header: 'Agent selection', width: 50 },
    ]);
    for (const group of groups)
      for (const test of group.scheduled) {
        const fields = test as Record<string, unknown>;
        scheduled.row([
          group.accountGroupName,
          test.testId,
          test.testName,
          test.type,
          String(fields.url ?? fields.server ?? ''),
          String(fields.protocol ?? ''),
          test.interval ?? null,
          test.isEnabled !== false,
          describeSelector((fields.agentSelectorConfig as AgentSelector | undefined) ?? undefined, group),
        ]);
      }
    scheduled.done();

    const dynamic = sheet('Dynamic Tests', [
      { header: 'Account group', width: 30 },
      { header: 'Test id', width: 10 },
      { header: 'Test', width: 30 },
      { header: 'Application', width: 16 },
      { header: 'Interval (s)', width: 10 },
      { header: 'Enabled', width: 8 },
      { header: 'Agent selection', width: 50 },
    ]);
    for (const group of groups)
      for (const test of group.dynamic)
        dynamic.row([
          group.accountGroupName,
          test.testId,
          test.testName,
          test.application ?? '',
          test.interval ?? null,
          test.isEnabled !== false,
          describeSelector(test.agentSelectorConfig, group),
        ]);
    dynamic.done();
  }, now);
}

function table(headers: string[], rows: string[][]): string {
  if (!rows.length) return '<p>None.</p>';
  return `<table><thead><tr>${headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('')}</tr></thead><tbody>
${rows
  .slice(0, SHOWN_ROWS)
  .map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`)
  .join(
    '\n',
  )}</tbody></table>${rows.length > SHOWN_ROWS ? `<p class="meta">${rows.length - SHOWN_ROWS} more in the spreadsheet.</p>` : ''}`;
}

export function epaHtml(organization: string, groups: EndpointGroup[], now: Date): string {
  const sections = groups.map(
    (group) => `<h2>${escapeHtml(group.accountGroupName)}</h2>
<h3>Endpoint agents (${group.agents.length})</h3>
${table(
  ['Name', 'Computer', 'Platform', 'OS', 'Version', 'Status', 'License', 'Last seen', 'Labels'],
  group.agents.map((agent) => [
    agent.name ?? '',
    agent.computerName ?? '',
    agent.platform ?? '',
    agent.osVersion ?? '',
    agent.version ?? '',
    agent.status ?? '',
    agent.licenseType ?? '',
    agent.lastSeen?.slice(0, 10) ?? '',
    group.labels
      .filter((label) => matchesLabel(agent, label))
      .map((label) => label.name)
      .join(', '),
  ]),
)}
<h3>Labels (${group.labels.length})</h3>
${table(
  ['Label', 'Filters', 'Agents matching'],
  group.labels.map((label) => [
    label.name,
    filtersText(label),
    String(group.agents.filter((agent) => matchesLabel(agent, label)).length),
  ]),
)}
<h3>Scheduled tests (${group.scheduled.length})</h3>
${table(
  ['Test', 'Type', 'Target', 'Interval', 'Enabled', 'Agent selection'],
  group.scheduled.map((test) => {
    const fields = test as Record<string, unknown>;
    return [
      test.testName,
      test.type,
      String(fields.url ?? fields.server ?? ''),
      `${test.interval ?? ''} s`,
      test.isEnabled === false ? 'no' : 'yes',
      describeSelector(fields.agentSelectorConfig as AgentSelector | undefined, group),
    ];
  }),
)}
<h3>Dynamic tests (${group.dynamic.length})</h3>
${table(
  ['Test', 'Application', 'Interval', 'Enabled', 'Agent selection'],
  group.dynamic.map((test) => [
    test.testName,
    test.application ?? '',
    `${test.interval ?? ''} s`,
    test.isEnabled === false ? 'no' : 'yes',
    describeSelector(test.agentSelectorConfig, group),
  ]),
)}`,
  );
  return htmlDocument(
    `EPA configuration: ${organization}`,
    `<h1>EPA Config Report</h1>
<p class="meta">${escapeHtml(organization)} · ${groups.length} account group(s) · ${escapeHtml(now.toISOString().slice(0, 16).replace('T', ' '))} UTC</p>
${sections.join('\n')}`,
  );
}

/** Endpoint agents, their labels (with filters and the agents they match) and scheduled and dynamic endpoint tests. */
export const epaConfigGenerator: ReportGenerator = async (context) => {
  const groups: EndpointGroup[] = [];
  const total = context.accountGroups.length + 1;
  for (const [index, group] of context.accountGroups.entries()) {
    const read = await readEndpointGroup(context, group);
    if (!read.ok) throw new AppError(403, 'platform_forbidden', read.reason);
    groups.push(read.value);
    await context.progress(index + 1, total);
  }
  const stem = fileStem('epa-config', context.organization.name, context.now);
  const workbook = await epaWorkbook(context.organization.name, groups, context.now);
  const html = epaHtml(context.organization.name, groups, context.now);
  await context.progress(total, total);
  const sum = (pick: (group: EndpointGroup) => number) => groups.reduce((total, group) => total + pick(group), 0);
  return {
    summaryMarkdown: `**EPA Config Report** for **${escapeMarkdown(context.organization.name)}** is ready: ${sum((group) => group.agents.length)} endpoint agent(s), ${sum((group) => group.labels.length)} label(s), ${sum((group) => group.scheduled.length)} scheduled and ${sum((group) => group.dynamic.length)} dynamic test(s) in ${groups.length} account group(s).`,
    artifacts: [
      { filename: `${stem}.xlsx`, contentType: XLSX_TYPE, content: workbook },
      { filename: `${stem}.html`, contentType: 'text/html; charset=utf-8', content: Buffer.from(html) },
    ],
  };
};
