import type { ReviewPack } from './review-pack.js';

/** Thirteen weeks of a quarter, as the deck labels them. */
const WEEKS = Array.from({ length: 13 }, (_, index) => `W${index + 27}`);
const CUT_OFF = '2026-10-01T06:00:00Z';
const at = (source: string) => ({ source, cutOff: CUT_OFF });

/**
 * A fixed pack for the renderers' tests: a quarter of a customer with a long table (14 consumers: two slides), a
 * provider outage with its evidence link, and a section that could not be determined (a missing permission).
 */
export const FIXED_PACK: ReviewPack = {
  customer: 'Acme Corporation',
  periodLabel: 'Q3 2026',
  from: '2026-07-01T00:00:00Z',
  to: '2026-10-01T00:00:00Z',
  cutOff: CUT_OFF,
  preparedBy: 'Dana Reyes',
  executiveSummary: {
    ...at('Account Watch runs and the team timeline'),
    content: {
      outcomes: [
        'Payroll HTTP availability back above 99.5% since week 35',
        'A provider outage caught on Warehouse network within 4 minutes',
        'Units on course for 96% of the plan',
      ],
      actions: [
        'Move Kiosk portal off the agent offline since September',
        'Retire the rule that still names a deleted test',
        'Add an agent-offline notification rule',
      ],
    },
  },
  units: {
    ...at('Account Watch runs (platform usage)'),
    content: {
      included: 120_000,
      used: 86_400,
      projected: 115_200,
      forecastToTermEnd: 460_800,
      termEnd: '2027-06-30T00:00:00Z',
      trend: [
        { label: 'July', used: 27_900 },
        { label: 'August', used: 28_800 },
        { label: 'September', used: 29_700 },
      ],
      largestConsumers: Array.from({ length: 14 }, (_, index) => ({
        test: `Branch ${String.fromCharCode(65 + index)} HTTP`,
        units: 9_000 - index * 450,
      })),
    },
  },
  availability: {
    ...at('Account Watch runs (test results)'),
    content: {
      weeks: WEEKS,
      targetPercent: 99.5,
      tests: [
        {
          test: 'Payroll HTTP',
          availability: WEEKS.map((_, index) => (index < 8 ? 97.2 + index * 0.2 : 99.8)),
          latencyMs: WEEKS.map(() => 182),
          belowTarget: true,
        },
        {
          test: 'Warehouse network',
          availability: WEEKS.map((_, index) => (index === 10 ? 98.8 : 100)),
          latencyMs: WEEKS.map(() => 41),
        },
        {
          test: 'Intranet home',
          availability: WEEKS.map((_, index) => (index === 0 ? null : 100)),
          latencyMs: WEEKS.map((_, index) => (index === 0 ? null : 95)),
        },
      ],
    },
  },
  alerts: {
    ...at('Account Watch runs (alerts)'),
    content: {
      weeks: WEEKS,
      volume: WEEKS.map((_, index) => 40 + ((index * 7) % 11)),
      noisiestRules: [
        { rule: 'Checkout errors', alerts: 412 },
        { rule: 'Payroll HTTP availability', alerts: 9 },
      ],
      silentRules: ['Intranet errors'],
      medianMinutesToClear: 25,
    },
  },
  outages: {
    ...at("the platform's Internet Insights and event detection"),
    content: {
      outages: [
        {
          start: '2026-09-06T10:00:00Z',
          end: '2026-09-06T12:00:00Z',
          provider: 'Cloud Provider Beta',
          tests: ['Warehouse network'],
          evidenceUrl: 'https://app.thousandeyes.com/s/wdiacq',
        },
      ],
      events: [
        {
          start: '2026-09-06T10:00:00Z',
          end: '2026-09-06T12:00:00Z',
          type: 'Network',
          severity: 'high',
          tests: ['Warehouse network'],
        },
      ],
    },
  },
  agents: {
    ...at('Account Watch runs (agents)'),
    content: {
      offline: [{ agent: 'emea-branches-ea-offline-9d', lastSeen: '2026-09-22T00:00:00Z' }],
      outdated: [{ agent: 'emea-branches-ea-outdated', problem: 'The agent version is outdated' }],
    },
  },
  changes: {
    ...at("the platform's activity log"),
    content: { unknown: 'the token lacks the View activity log permission' },
  },
  health: {
    ...at('Account health checks'),
    content: {
      points: [
        { label: '1 Jul', score: 71 },
        { label: '1 Aug', score: 76 },
        { label: '1 Sep', score: 74 },
        { label: '30 Sep', score: 83 },
      ],
      movers: ['Payroll HTTP failures fixed (+6)', 'An agent offline for 9 days (-3)'],
    },
  },
  teamWork: {
    ...at('the team timeline and the time tracker'),
    content: {
      items: [
        { what: 'Watch runs', count: 13 },
        { what: 'Tests created', count: 4 },
        { what: 'Restores', count: 1 },
      ],
      hours: 18.5,
    },
  },
  recommendations: {
    ...at('open recommendations'),
    content: {
      items: [
        { recommendation: 'Add an agent-offline notification rule', owner: 'Acme NOC', due: '2026-10-15T00:00:00Z' },
        {
          recommendation: 'Raise the Checkout errors threshold to 2 rounds',
          owner: 'Dana Reyes',
          due: '2026-10-31T00:00:00Z',
        },
      ],
    },
  },
};
