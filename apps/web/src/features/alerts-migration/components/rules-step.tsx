import { useMemo } from 'react';
import { useController } from 'react-hook-form';
import type { MigrationRules } from '@ce/contract';
import type { MigrationFormApi } from '../migration-form';
import { RulesTable } from './rules-table';

/** The source group's alert rules in words, to choose the ones to migrate. */
export function RulesStep({ form, rules }: { form: MigrationFormApi; rules: MigrationRules }) {
  const { field } = useController({ control: form.control, name: 'ruleIds' });
  const selected = useMemo(() => new Set(field.value), [field.value]);
  return (
    <section className="space-y-3" aria-label="Alert rules">
      <h2 className="text-xl font-semibold">Alert rules of {rules.accountGroupName}</h2>
      <RulesTable rules={rules.rules} selected={selected} onSelectedChange={(next) => field.onChange([...next])} />
    </section>
  );
}
