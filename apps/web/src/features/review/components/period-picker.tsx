import { useMemo, useState } from 'react';
import { REVIEW_PERIOD_KINDS, type ReviewPeriodKind } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Select, TextInput } from '../../../components/ui/field';
import {
  cutOffInput,
  cutOffNow,
  cutOffOf,
  dayProblems,
  defaultPeriod,
  isDay,
  monthOptions,
  quarterOptions,
  utcMinute,
  type PeriodChoice,
} from '../period';

const KIND_LABELS: Record<ReviewPeriodKind, string> = { month: 'Month', quarter: 'Quarter', dates: 'Dates' };

export interface PeriodPickerProps {
  period: PeriodChoice;
  onPeriodChange: (period: PeriodChoice) => void;
  /** The cut-off as its field holds it ("2026-12-02T13:07", read as UTC). */
  cutOffText: string;
  onCutOffTextChange: (text: string) => void;
  periodProblem: string | null;
  cutOffProblem: string | null;
  now: () => Date;
}

/** A month (the last full one by default), a quarter or dates, and the cut-off the pack's figures stop at. */
export function PeriodPicker({
  period,
  onPeriodChange,
  cutOffText,
  onCutOffTextChange,
  periodProblem,
  cutOffProblem,
  now,
}: PeriodPickerProps) {
  const today = now();
  const cutOff = cutOffOf(cutOffText);
  const day = today.toISOString().slice(0, 10);
  const options = useMemo(
    () => (period.kind === 'month' ? monthOptions(today) : period.kind === 'quarter' ? quarterOptions(today) : []),
    // The choices change with the day, not with every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [period.kind, day],
  );
  const chosen = options.find((option) => option.period.from === period.from);
  // A day's problem is said beside its field once the field was touched (changed or left), as the app's forms do;
  // the order of the two days beside the last one, once either was touched and both are days.
  const [touched, setTouched] = useState({ from: false, to: false });
  const days = dayProblems(period, today);
  const fromSaid = touched.from ? days.from : null;
  const toSaid = touched.to || (touched.from && isDay(period.to)) ? days.to : null;
  const touch = (field: 'from' | 'to') => !touched[field] && setTouched({ ...touched, [field]: true });
  return (
    <div className="space-y-3">
      <div role="group" aria-label="Period kind" className="flex flex-wrap gap-1">
        {REVIEW_PERIOD_KINDS.map((kind) => (
          <Button
            key={kind}
            size="sm"
            variant={period.kind === kind ? 'primary' : 'secondary'}
            aria-pressed={period.kind === kind}
            onClick={() => {
              if (kind === period.kind) return;
              setTouched({ from: false, to: false });
              onPeriodChange(defaultPeriod(kind, now()));
            }}
          >
            {KIND_LABELS[kind]}
          </Button>
        ))}
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {period.kind === 'dates' ? (
          <>
            <TextInput
              label="First day"
              type="date"
              value={period.from}
              max={day}
              error={fromSaid}
              onBlur={() => touch('from')}
              onChange={(event) => {
                touch('from');
                onPeriodChange({ ...period, from: event.target.value });
              }}
            />
            <TextInput
              label="Last day"
              type="date"
              value={period.to}
              error={toSaid}
              onBlur={() => touch('to')}
              onChange={(event) => {
                touch('to');
                onPeriodChange({ ...period, to: event.target.value });
              }}
            />
          </>
        ) : (
          <Select
            label={period.kind === 'month' ? 'Month' : 'Quarter'}
            value={chosen?.value ?? ''}
            options={options.map(({ value, label }) => ({ value, label }))}
            error={periodProblem}
            onChange={(event) => {
              const next = options.find((option) => option.value === event.target.value);
              if (next) onPeriodChange(next.period);
            }}
          />
        )}
        <div className="flex items-start gap-2">
          <TextInput
            label="Cut-off (UTC)"
            type="datetime-local"
            step={1}
            value={cutOffText}
            max={cutOffInput(today.toISOString())}
            fieldClassName="min-w-0 flex-1"
            error={cutOffProblem}
            onChange={(event) => onCutOffTextChange(event.target.value)}
          />
          <Button size="sm" className="mt-6" onClick={() => onCutOffTextChange(cutOffInput(cutOffNow(now())))}>
            Now
          </Button>
        </div>
      </div>
      {cutOff && !cutOffProblem && (
        <p className="text-sm text-slate-700" data-testid="cut-off">
          Figures up to {utcMinute(cutOff)}: nothing after it is counted, so the pack’s figures reproduce.
        </p>
      )}
    </div>
  );
}
