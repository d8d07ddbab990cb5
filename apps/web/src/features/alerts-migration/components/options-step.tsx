import { useWatch } from 'react-hook-form';
import type { MigrationRules } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import type { MigrationFormApi } from '../migration-form';

/** How the rules are migrated (copy or move, conflicts, rules left without tests, defaults, recipients, windows), and Preview Plan. */
export function OptionsStep({
  form,
  rules,
  planning,
  onPreview,
}: {
  form: MigrationFormApi;
  rules: MigrationRules;
  planning: boolean;
  onPreview: () => void;
}) {
  const [elsewhere, ruleIds] = useWatch({ control: form.control, name: ['elsewhere', 'ruleIds'] });
  const chosen = new Set(ruleIds);
  const { register } = form;
  return (
    <section className="space-y-3" aria-label="Options">
      <h2 className="text-xl font-semibold">Options</h2>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Mode</legend>
        <label className="flex items-center gap-2">
          <input type="radio" value="copy" {...register('options.mode')} />
          Copy (the source keeps its rules)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" value="move" {...register('options.mode')} />
          Move (each source rule is deleted once every target has it)
        </label>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Select
          label="A different rule of the same name in a target"
          {...register('options.onConflict')}
          options={[
            { value: 'ask', label: 'Ask me for each one' },
            { value: 'skip', label: 'Skip them all' },
            { value: 'update', label: 'Update them all' },
            { value: 'rename', label: 'Create them all under a new name' },
          ]}
        />
        <Select
          label="A rule none of whose tests exist in a target"
          {...register('options.whenNoTestsLeft')}
          options={[
            { value: 'keep', label: 'Create it without tests' },
            { value: 'skip', label: 'Leave it out' },
          ]}
        />
        <Select
          label="A rule that would arrive with no test and no recipient"
          {...register('options.whenUnableToAlert')}
          options={[
            { value: 'keep', label: 'Create it (it could never alert anyone)' },
            { value: 'skip', label: 'Leave it out' },
          ]}
        />
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" {...register('options.keepDefault')} />
        Keep default rules default in the targets (a default rule applies to every new test)
      </label>
      {elsewhere && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...register('options.keepRecipients')} />
          Keep the email recipients in the other organization (they are addresses of the source&apos;s organization:
          without this, the plan lists each one dropped)
        </label>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" {...register('options.includeWindows')} />
        Bring the suppression windows that cover the migrated rules&apos; tests
        {rules.windows.length > 0 &&
          ` (${rules.windows.filter((window) => window.ruleIds.some((id) => chosen.has(id))).length} of ${rules.windows.length})`}
      </label>
      <Button variant="primary" busy={planning} busyLabel="Planning" onClick={onPreview}>
        Preview Plan
      </Button>
    </section>
  );
}
