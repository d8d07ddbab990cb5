import type { AlertRule, TestType } from './model.js';

export const DAY = 86_400_000;

export const ORGS = [
  {
    name: 'Acme Corporation',
    slug: 'acme',
    groups: [
      'Acme - Production',
      'Acme - Staging',
      'Acme - EMEA Branches',
      'Acme - APAC Offices',
      'Acme - Data Centers',
      'Acme - SaaS Apps',
    ],
  },
  {
    name: 'Globex Financial',
    slug: 'globex',
    groups: [
      'Globex - Trading Platform',
      'Globex - Retail Banking',
      'Globex - Call Centers',
      'Globex - Cloud Migration',
      'Globex - Branch Network',
      'Globex - Security Ops',
    ],
  },
];

export const CLOUD_LOCATIONS: [string, string][] = [
  ['Amsterdam, Netherlands', 'NL'],
  ['Ashburn, VA', 'US'],
  ['Atlanta, GA', 'US'],
  ['Chicago, IL', 'US'],
  ['Dallas, TX', 'US'],
  ['Frankfurt, Germany', 'DE'],
  ['Hong Kong', 'HK'],
  ['London, England', 'GB'],
  ['Los Angeles, CA', 'US'],
  ['Madrid, Spain', 'ES'],
  ['Mumbai, India', 'IN'],
  ['New York, NY', 'US'],
  ['Paris, France', 'FR'],
  ['São Paulo, Brazil', 'BR'],
  ['Singapore', 'SG'],
  ['Sydney, Australia', 'AU'],
  ['Tokyo, Japan', 'JP'],
  ['Toronto, Canada', 'CA'],
  ['Seattle, WA', 'US'],
  ['Stockholm, Sweden', 'SE'],
];
export const OFFICE_LOCATIONS: [string, string][] = [
  ['Austin, TX', 'US'],
  ['Boston, MA', 'US'],
  ['Dublin, Ireland', 'IE'],
  ['Milan, Italy', 'IT'],
  ['Munich, Germany', 'DE'],
  ['Raleigh, NC', 'US'],
  ['San Jose, CA', 'US'],
  ['Warsaw, Poland', 'PL'],
  ['Bangalore, India', 'IN'],
  ['Melbourne, Australia', 'AU'],
  ['Mexico City, Mexico', 'MX'],
  ['Zurich, Switzerland', 'CH'],
];
export const TARGETS = [
  'www.salesforce.com',
  'login.microsoftonline.com',
  'outlook.office365.com',
  'app.zoom.us',
  'www.webex.com',
  'api.github.com',
  'portal.azure.com',
  'console.aws.amazon.com',
  'mail.google.com',
  'slack.com',
  'www.servicenow.com',
  'my.workday.com',
  'intranet.example.com',
  'vpn.example.com',
  'sap.example.com',
];
export const FIRST = [
  'Ana',
  'Ben',
  'Chloe',
  'Diego',
  'Emma',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kara',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wen',
  'Yusuf',
  'Zoe',
];
export const LAST = [
  'Anders',
  'Bauer',
  'Costa',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Rossi',
  'Silva',
  'Tanaka',
  'Weber',
];
export const TEST_TYPES: TestType[] = ['http-server', 'page-load', 'dns-server', 'dns-trace', 'agent-to-server', 'bgp'];
export const INTERVALS = [60, 120, 300, 600, 900, 1800, 3600];
export const WIDGET_TYPES = [
  'Time Series: Line',
  'Number',
  'Table',
  'Map',
  'Bar Chart: Stacked',
  'Alert List',
  'Pie Chart',
  'Agent Status',
];
export const AUDIT_EVENTS = [
  'Login',
  'Test created',
  'Test updated',
  'Test deleted',
  'Alert rule updated',
  'Dashboard created',
  'Agent updated',
  'User invited',
  'Report viewed',
  'API token created',
];

export const ALERT_RULE_TEMPLATES: {
  name: string;
  alertType: string;
  expression: string;
  direction?: AlertRule['direction'];
  severity: AlertRule['severity'];
}[] = [
  {
    name: 'Default HTTP Alert Rule',
    alertType: 'http-server',
    expression: '((errorType != "None"))',
    severity: 'major',
  },
  {
    name: 'Default Network Alert Rule',
    alertType: 'end-to-end-server',
    expression: '((loss >= 10%) || (probDetail != ""))',
    direction: 'to-target',
    severity: 'major',
  },
  {
    name: 'Default DNS Server Alert Rule',
    alertType: 'dns-server',
    expression: '((probDetail != ""))',
    severity: 'minor',
  },
  {
    name: 'Default Page Load Alert Rule',
    alertType: 'page-load',
    expression: '((responseCode != "200"))',
    severity: 'minor',
  },
  { name: 'Default BGP Alert Rule', alertType: 'bgp', expression: '((reachability < 100%))', severity: 'critical' },
  {
    name: 'High Latency',
    alertType: 'end-to-end-server',
    expression: '((latency >= 150 ms))',
    direction: 'to-target',
    severity: 'minor',
  },
  {
    name: 'Slow Response Time',
    alertType: 'http-server',
    expression: '((responseTime >= 2000 ms))',
    severity: 'minor',
  },
  {
    name: 'Packet Loss Critical',
    alertType: 'end-to-end-server',
    expression: '((loss >= 10%) || (probDetail != ""))',
    direction: 'to-target',
    severity: 'critical',
  },
  {
    name: 'Path Trace Changed',
    alertType: 'path-trace',
    expression: '((pathLength >= 20))',
    direction: 'to-target',
    severity: 'info',
  },
  { name: 'DNS Resolution Failed', alertType: 'dns-trace', expression: '((errorType != "None"))', severity: 'major' },
];
