import type { MigrationRule } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { CheckList } from '../../../components/ui/check-list';

const matches = (rule: MigrationRule, needle: string) =>
  [rule.ruleName, rule.alertType, rule.severity, rule.condition, ...rule.tests, ...rule.notifications].some((text) =>
    text.toLowerCase().includes(needle),
  );

function RuleRow({ rule }: { rule: MigrationRule }) {
  return (
    <span className="grid min-w-0 flex-1 gap-0.5 py-1">
      <span className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium">{rule.ruleName}</span>
        <Badge tone="neutral">{rule.alertType}</Badge>
        {rule.severity && <Badge tone={rule.severity === 'critical' ? 'danger' : 'amber'}>{rule.severity}</Badge>}
        {rule.isDefault && <Badge tone="purple">default</Badge>}
      </span>
      <span className="truncate text-slate-600">{rule.condition}</span>
      <span className="truncate text-xs text-slate-500">
        Tests: {rule.tests.length ? rule.tests.join(', ') : 'none'} · Notifies:{' '}
        {rule.notifications.length ? rule.notifications.join(', ') : 'nobody'}
      </span>
    </span>
  );
}

/** The source's alert rules: name, type, severity, default, condition in words, tests and notifications. */
export function RulesTable({
  rules,
  selected,
  onSelectedChange,
}: {
  rules: MigrationRule[];
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
}) {
  return (
    <CheckList
      items={rules}
      itemKey={(rule) => rule.ruleId}
      renderItem={(rule) => <RuleRow rule={rule} />}
      matches={matches}
      selected={selected}
      onSelectedChange={onSelectedChange}
      label="Alert rules"
      searchLabel="Search rules"
      searchPlaceholder="Search by name, type, condition, test or recipient"
      emptyText="No rule matches."
      rowHeight={76}
      height="24rem"
      noun="Rules"
      data-testid="rules"
    />
  );
}
