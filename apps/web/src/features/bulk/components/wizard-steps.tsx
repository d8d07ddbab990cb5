export interface WizardStep {
  label: string;
  done: boolean;
  reachable: boolean;
}

export interface WizardStepsProps {
  steps: WizardStep[];
  current: number;
  onGo: (step: number) => void;
  /** 'sidebar': the progress sidebar with the Alpha badge; 'stepper': the hub's row with checks. */
  variant: 'sidebar' | 'stepper';
  badge?: string;
}

/** The progress of a wizard: where you are, what is done (a check), and a way back to any reachable step. */
export function WizardSteps({ steps, current, onGo, variant, badge }: WizardStepsProps) {
  const items = steps.map((step, index) => {
    const number = index + 1;
    const state = number === current ? 'current' : step.done ? 'done' : 'todo';
    return (
      <li key={step.label}>
        <button
          type="button"
          disabled={!step.reachable}
          aria-current={number === current ? 'step' : undefined}
          onClick={() => onGo(number)}
          className={`flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm disabled:cursor-not-allowed ${
            state === 'current' ? 'bg-brand-50 font-semibold text-brand-800' : 'text-slate-700'
          }`}
        >
          <span
            className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs ${
              step.done ? 'bg-green-600 text-white' : 'border border-slate-300'
            }`}
            aria-label={step.done ? 'completed' : undefined}
          >
            {step.done ? '✓' : number}
          </span>
          {step.label}
        </button>
      </li>
    );
  });
  if (variant === 'stepper')
    return (
      <ol className="flex flex-wrap gap-2 border-b border-slate-200 pb-3" aria-label="Progress">
        {items}
      </ol>
    );
  return (
    <aside className="w-full shrink-0 space-y-3 md:w-56" aria-label="Progress">
      {badge && (
        <span className="inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">
          {badge}
        </span>
      )}
      <ol className="space-y-1">{items}</ol>
    </aside>
  );
}
