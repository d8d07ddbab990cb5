import { closureOptionsSchema, HEALTH_PROFILES, type HealthCheck } from '@ce/contract';
import { describeSelector, readEndpointGroup, type EndpointGroup } from '../config/epa-config.generator.js';
import { runChecks, scoreOf } from '../health/checks.js';
import { ALERT_LOOKBACK_DAYS } from '../health/generator.js';
import { readHealth } from '../health/read.js';
import { required } from '../../../../report-kit/platform-reads.js';
import { mdSafe } from '../../../../report-kit/markdown.js';
import {
  groupByGroupReport,
  reportFiles,
  type ReportContext,
  type ReportFiles,
  type ReportGenerator,
  type WrittenReport,
} from '../../report-generator.js';
import { closureDocx, closurePdf, type ClosureDocument } from './document.js';

const DAY_MS = 86_400_000;
/** Endpoint agents not seen for more than this many days are an outstanding item of the endpoints document. */
export const ENDPOINT_STALE_DAYS = 7;

const counted = (values: string[]) => {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
};

const findingOf = (check: HealthCheck) => ({
  title: check.title,
  status: check.status,
  detail:
    check.status === 'unknown'
      ? (check.reason ?? 'Could not be checked.')
      : check.items.length
        ? `${check.items.length} item(s), e.g. ${check.items
            .slice(0, 3)
            .map((item) => item.name)
            .join('; ')}`
        : `Passes (${check.threshold}).`,
  remediation: check.status === 'pass' ? '' : check.remediation,
});

function common(context: ReportContext, title: string) {
  const options = closureOptionsSchema.parse(context.options);
  return {
    title,
    organization: context.organization.name,
    accountGroups: context.accountGroups.map((group) => group.accountGroupName),
    author: context.requestedBy,
    date: context.now,
    ...(options.engagementName ? { engagementName: options.engagementName } : {}),
    ...(options.customerContact ? { customerContact: options.customerContact } : {}),
    ...(options.notes ? { notes: options.notes } : {}),
  };
}

/** The document as an editable Word file and a PDF. */
async function files(document: ClosureDocument): Promise<ReportFiles> {
  return { docx: await closureDocx(document), pdf: await closurePdf(document) };
}

/**
 * The AS Built closure document: the cloud and enterprise agents, tests, alert rules and dashboards of the
 * engagement's account groups, with the health check's findings (current profile) inline.
 */
export const closureUnitsGenerator: ReportGenerator = async (context) => {
  const reading = await readHealth({
    session: context.platform,
    accountGroups: context.accountGroups,
    now: context.now,
    alertDays: { started: ALERT_LOOKBACK_DAYS, cleared: HEALTH_PROFILES.v7.alertsActiveDays },
    progress: context.progress,
    signal: context.signal,
  });
  // A document of what was deployed cannot do without the tests and agents.
  for (const group of reading.groups) {
    required(group.tests);
    required(group.agents);
  }
  const checks = runChecks(reading.input, HEALTH_PROFILES.v7);
  const score = scoreOf(checks);
  const agents = reading.groups.flatMap((group) =>
    group.agents.ok
      ? group.agents.value
          .filter((agent) => agent.agentType !== 'cloud')
          .map((agent) => [
            group.accountGroupName,
            agent.agentName,
            agent.agentType,
            agent.location ?? '',
            agent.agentState ?? (agent.enabled === false ? 'disabled' : 'online'),
          ])
      : [],
  );
  const tests = reading.input.tests.ok ? reading.input.tests.value : [];
  const rules = reading.input.rules.ok ? reading.input.rules.value : [];
  const dashboards = reading.input.dashboards.ok ? reading.input.dashboards.value : [];
  const byType = counted(tests.map((test) => test.type));
  const owners = reading.groups.map((group) => ({
    accountGroup: group.accountGroupName,
    owners: group.users.ok
      ? group.users.value
          .filter((user) => user.admin)
          .map((user) => `${user.name} <${user.email}> (${user.roles.join(', ')})`)
          .join('; ') || 'No administrator in this account group'
      : group.users.reason,
  }));
  const failing = checks.filter((check) => check.status === 'fail' || check.status === 'warn');
  const document: ClosureDocument = {
    ...common(context, 'AS Built Closure Document'),
    summary: [
      `${context.organization.name}: ${context.accountGroups.length} account group(s) with ${agents.length} enterprise agent(s), ${tests.length} test(s), ${rules.length} alert rule(s) and ${dashboards.length} dashboard(s) at handover.`,
      `Account health score at handover: ${score.value}/100 (grade ${score.grade}); ${failing.length} of ${checks.length} checks need attention.`,
    ],
    scope: [
      `Account groups: ${context.accountGroups.map((group) => group.accountGroupName).join(', ')}.`,
      'Units covered: cloud and enterprise agents, tests of every type, alert rules and dashboards, as the platform (API v7) reports them on the date of this document.',
    ],
    deployed: [
      { title: 'Enterprise agents', columns: ['Account group', 'Agent', 'Type', 'Location', 'State'], rows: agents },
      {
        title: 'Tests',
        columns: ['Account group', 'Test', 'Type', 'Enabled', 'Created'],
        rows: tests.map((test) => [
          test.accountGroup,
          test.testName,
          test.type,
          test.enabled ? 'yes' : 'no',
          test.createdDate?.slice(0, 10) ?? '',
        ]),
      },
      {
        title: 'Alert rules',
        columns: ['Account group', 'Rule', 'Severity'],
        rows: rules.map((rule) => [rule.accountGroup, rule.ruleName, rule.severity]),
      },
      {
        title: 'Dashboards',
        columns: ['Account group', 'Dashboard', 'Widgets'],
        rows: dashboards.map((dashboard) => [dashboard.accountGroup, dashboard.title, String(dashboard.widgetCount)]),
      },
    ],
    chart: {
      title: 'Tests by type',
      categories: byType.map(([type]) => type),
      values: byType.map(([, count]) => count),
    },
    findings: checks.map(findingOf),
    outstanding: [
      ...failing.map(
        (check) => `${check.title} (${check.status}): ${check.items.length} item(s). ${check.remediation}`,
      ),
      ...checks
        .filter((check) => check.status === 'unknown')
        .map((check) => `Risk: ${check.title} could not be checked. ${check.reason ?? ''}`),
    ],
    owners,
  };
  return {
    summaryMarkdown:
      mdSafe`**AS Built Closure Document** for **${context.organization.name}** is ready: ${agents.length} enterprise agent(s), ${tests.length} test(s), ${rules.length} alert rule(s), ${dashboards.length} dashboard(s); health score ${score.value}/100.`
        .text,
    artifacts: reportFiles(context, 'as-built-closure', await files(document)),
  };
};

/** The endpoints closure document: endpoint agents, labels and endpoint tests, with what needs attention. */
export const closureEndpointsGenerator = groupByGroupReport({
  kind: 'endpoints-closure',
  read: readEndpointGroup,
  write: endpointsDocument,
});

async function endpointsDocument(context: ReportContext, groups: EndpointGroup[]): Promise<WrittenReport> {
  const agents = groups.flatMap((group) => group.agents.map((agent) => ({ group, agent })));
  const tests = groups.flatMap((group) => [
    ...group.scheduled.map((test) => ({
      group,
      name: test.testName,
      kind: `scheduled ${test.type}`,
      enabled: test.isEnabled !== false,
      selector: describeSelector(test.agentSelectorConfig, group),
    })),
    ...group.dynamic.map((test) => ({
      group,
      name: test.testName,
      kind: `dynamic ${test.application ?? ''}`.trim(),
      enabled: test.isEnabled !== false,
      selector: describeSelector(test.agentSelectorConfig, group),
    })),
  ]);
  const stale = agents.filter(
    ({ agent }) => !agent.lastSeen || context.now.getTime() - Date.parse(agent.lastSeen) > ENDPOINT_STALE_DAYS * DAY_MS,
  );
  const disabledAgents = agents.filter(({ agent }) => agent.status === 'disabled');
  const disabledTests = tests.filter((test) => !test.enabled);
  const byPlatform = counted(agents.map(({ agent }) => agent.platform ?? 'unknown'));
  const finding = (title: string, items: string[], remediation: string) => ({
    title,
    status: items.length ? 'warn' : 'pass',
    detail: items.length ? `${items.length} item(s), e.g. ${items.slice(0, 3).join('; ')}` : 'None.',
    remediation: items.length ? remediation : '',
  });
  const findings = [
    finding(
      `Endpoint agents not seen for more than ${ENDPOINT_STALE_DAYS} days`,
      stale.map(({ agent }) => agent.name ?? agent.id),
      'Check that these machines are still in use and their agent runs; remove the ones retired.',
    ),
    finding(
      'Disabled endpoint agents',
      disabledAgents.map(({ agent }) => agent.name ?? agent.id),
      'Enable them or release their licences.',
    ),
    finding(
      'Disabled endpoint tests',
      disabledTests.map((test) => test.name),
      'Enable them or delete them.',
    ),
  ];
  const details = common(context, 'Endpoints Closure Document');
  const document: ClosureDocument = {
    ...details,
    summary: [
      `${context.organization.name}: ${agents.length} endpoint agent(s), ${groups.reduce((sum, group) => sum + group.labels.length, 0)} label(s) and ${tests.length} endpoint test(s) in ${groups.length} account group(s) at handover.`,
      `${findings.filter((item) => item.status !== 'pass').length} of ${findings.length} checks need attention.`,
    ],
    scope: [
      `Account groups: ${context.accountGroups.map((group) => group.accountGroupName).join(', ')}.`,
      'Covered: endpoint agents, endpoint agent labels, scheduled and dynamic endpoint tests, as the platform (API v7) reports them on the date of this document.',
    ],
    deployed: [
      {
        title: 'Endpoint agents',
        columns: ['Account group', 'Agent', 'Platform', 'Version', 'Status', 'Last seen'],
        rows: agents.map(({ group, agent }) => [
          group.accountGroupName,
          agent.name ?? agent.id,
          agent.platform ?? '',
          agent.version ?? '',
          agent.status ?? '',
          agent.lastSeen?.slice(0, 10) ?? '',
        ]),
      },
      {
        title: 'Labels',
        columns: ['Account group', 'Label', 'Match'],
        rows: groups.flatMap((group) =>
          group.labels.map((label) => [group.accountGroupName, label.name, label.matchType ?? '']),
        ),
      },
      {
        title: 'Endpoint tests',
        columns: ['Account group', 'Test', 'Kind', 'Enabled', 'Agent selection'],
        rows: tests.map((test) => [
          test.group.accountGroupName,
          test.name,
          test.kind,
          test.enabled ? 'yes' : 'no',
          test.selector,
        ]),
      },
    ],
    chart: {
      title: 'Endpoint agents by platform',
      categories: byPlatform.map(([platform]) => platform),
      values: byPlatform.map(([, count]) => count),
    },
    findings,
    outstanding: findings
      .filter((item) => item.status !== 'pass')
      .map((item) => `${item.title}: ${item.detail}. ${item.remediation}`),
    owners: groups.map((group) => ({
      accountGroup: group.accountGroupName,
      owners: [context.requestedBy, details.customerContact].filter(Boolean).join('; '),
    })),
  };
  return {
    summary: mdSafe`**Endpoints Closure Document** for **${context.organization.name}** is ready: ${agents.length} endpoint agent(s), ${tests.length} endpoint test(s).`,
    files: await files(document),
  };
}
