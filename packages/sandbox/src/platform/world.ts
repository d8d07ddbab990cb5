import type {
  AccountGroup,
  Agent,
  Alert,
  AlertRule,
  AuditEvent,
  Dashboard,
  EndpointAgent,
  EndpointDynamicTest,
  EndpointLabel,
  EndpointTest,
  Incident,
  Organization,
  Role,
  SuppressionWindow,
  Tag,
  Test,
  TestVersion,
  Token,
  User,
  Webhook,
} from './model.js';

export type WorldSize = 'demo' | 'large';

export interface World {
  /** The moment the world's dates were spread back from (epoch milliseconds). */
  now: number;
  /** The seed the world was made from (the simulated rounds are drawn from it too). */
  seed: string;
  organizations: Organization[];
  accountGroups: AccountGroup[];
  agents: Agent[];
  tests: Test[];
  alertRules: AlertRule[];
  alerts: Alert[];
  users: User[];
  roles: Role[];
  dashboards: Dashboard[];
  suppressionWindows: SuppressionWindow[];
  webhooks: Webhook[];
  tags: Tag[];
  endpointAgents: EndpointAgent[];
  endpointTests: EndpointTest[];
  endpointDynamicTests: EndpointDynamicTest[];
  endpointLabels: EndpointLabel[];
  auditEvents: AuditEvent[];
  tokens: Token[];
  /** What goes wrong in the simulated measurements (planted; the rounds themselves are made on request). */
  incidents: Incident[];
  /** Test versions kept by the sandbox's writes (seeded tests' first versions are derived, not stored). */
  testVersions: TestVersion[];
}

export interface GeneratorOptions {
  seed?: string;
  size?: WorldSize;
  /** The moment dates are spread back from (defaults to today, 00:00 UTC). */
  now?: number;
  /**
   * Which copy of the organizations to build (0, the default, is the world itself): a copy has the same
   * names and data, but its own organization, account group and object ids, and its own tokens.
   */
  copy?: number;
}
