import { Check } from 'lucide-react';
import { Badge } from './badge';

export interface Step {
  label: string;
  /** Completed: shows a check. */
  done: boolean;
  /** Whether the user may go to it from here. */
  reachable: boolean;
}

export interface StepperProps {
  steps: readonly Step[];
  /** 1-based. */
  current: number;
  onGo: (step: number) => void;
  /** 'sidebar': a column beside the form (the bulk creator's progress); 'row': a line above it. */
  variant?: 'sidebar' | 'row';
  /** The list's accessible name. */
  label?: string;
  badge?: string;
}

/** A wizard's progress: where you are, what is done (a check), and a way back to any reachable step. */
export function Stepper({ steps, current, onGo, variant = 'row', label = 'Progress', badge }: StepperProps) {
  const items = steps.map((step, index) => {
    const number = index + 1;
    const isCurrent = number === current;
    return (
      <li key={step.label}>
        <button
          type="button"
          disabled={!step.reachable}
          aria-current={isCurrent ? 'step' : undefined}
          onClick={() => onGo(number)}
          className={`flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm disabled:cursor-not-allowed ${
            isCurrent ? 'bg-brand-50 font-semibold text-brand-800' : 'text-slate-700'
          }`}
        >
          <span
            className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs ${
              step.done ? 'bg-green-700 text-white' : 'border border-slate-300'
            }`}
            aria-label={step.done ? 'completed' : undefined}
          >
            {step.done ? <Check className="h-4 w-4" aria-hidden="true" /> : number}
          </span>
          {step.label}
        </button>
      </li>
    );
  });
  if (variant === 'row')
    return (
      <ol className="flex flex-wrap gap-2 border-b border-slate-200 pb-3" aria-label={label}>
        {items}
      </ol>
    );
  return (
    // Stays in view while a long step scrolls.
    <aside className="w-full shrink-0 space-y-3 self-start md:sticky md:top-0 md:w-56" aria-label={label}>
      {badge && <Badge tone="warning">{badge}</Badge>}
      <ol className="space-y-1">{items}</ol>
    </aside>
  );
}
