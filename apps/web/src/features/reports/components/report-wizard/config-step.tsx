import { useController, type UseFormReturn } from 'react-hook-form';
import { AHC_IE_DAYS_RANGES, AHC_TABLES } from '@ce/contract';
import { Select } from '../../../../components/ui/field';
import type { WizardValues } from './form';

/** Step 3 of AHC-IE: the days range and the tables of the report. */
export function ConfigStep({ form }: { form: UseFormReturn<WizardValues> }) {
  const tables = useController({ control: form.control, name: 'tables' });
  return (
    <>
      <Select
        label="Days range"
        options={AHC_IE_DAYS_RANGES.map((days) => ({ value: String(days), label: String(days) }))}
        {...form.register('ahcDays', { valueAsNumber: true })}
      />
      <fieldset className="space-y-1 text-sm">
        <legend className="font-medium">Tables</legend>
        {AHC_TABLES.map((table) => (
          <label key={table} className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={tables.field.value.includes(table)}
              onChange={() =>
                tables.field.onChange(
                  tables.field.value.includes(table)
                    ? tables.field.value.filter((item) => item !== table)
                    : [...tables.field.value, table],
                )
              }
            />
            {table}
          </label>
        ))}
      </fieldset>
    </>
  );
}
