import { useMemo } from 'react';
import type { BulkAccountGroup, ConflictChoice, PlanCell } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { CellGrid, type GridCell } from './cell-grid';

const PLAN_LABEL: Record<ConflictChoice, Record<PlanCell['action'], string>> = {
  skip: { create: 'Create', exists: 'Exists, skip', blocked: 'Blocked' },
  rename: { create: 'Create', exists: 'Exists, rename', blocked: 'Blocked' },
};

/**
 * The end of the bulk test creator, outside its read-only part: the plan (what each template does in each
 * group, and what to do with names already taken), Back, Preview Plan and Execute Bulk Tests.
 */
export function PlanAndExecute({
  plan,
  templateNames,
  groups,
  onConflict,
  onConflictChange,
  planning,
  runActive,
  ranAsShown,
  backDisabled,
  onBack,
  onPreview,
  onExecute,
}: {
  plan: PlanCell[] | null;
  templateNames: string[];
  groups: BulkAccountGroup[];
  onConflict: ConflictChoice;
  onConflictChange: (choice: ConflictChoice) => void;
  planning: boolean;
  /** A run is being started or is going. */
  runActive: boolean;
  /** The run shown has ended and Execute would send the same again. */
  ranAsShown: boolean;
  backDisabled: boolean;
  onBack: () => void;
  onPreview: () => void;
  onExecute: () => void;
}) {
  const planByCell = useMemo(() => new Map(plan?.map((cell) => [`${cell.templateIndex}:${cell.aid}`, cell])), [plan]);
  const conflicts = plan?.filter((cell) => cell.action === 'exists').length ?? 0;
  const planCell = (templateIndex: number, aid: string): GridCell | undefined => {
    const cell = planByCell.get(`${templateIndex}:${aid}`);
    if (!cell) return undefined;
    const missing = cell.missingAgents.length > 0 ? `missing ${cell.missingAgents.join(', ')}` : null;
    return { status: cell.action, label: PLAN_LABEL[onConflict][cell.action], detail: cell.reason ?? missing };
  };
  return (
    <div className="space-y-4">
      {plan && (
        <div className="space-y-1" data-testid="plan">
          <CellGrid
            caption="Plan: what each template does in each account group"
            templateNames={templateNames}
            groups={groups}
            cell={planCell}
          />
          <p className="text-sm text-slate-600">
            {plan.filter((cell) => cell.action === 'create').length} to create, {conflicts} already exist and will be{' '}
            {onConflict === 'skip' ? 'skipped' : 'created with a suffix'},{' '}
            {plan.filter((cell) => cell.action === 'blocked').length} cannot be created.
          </p>
          {conflicts > 0 && (
            <fieldset className="flex flex-wrap gap-4 text-sm" aria-label="Tests whose name is taken">
              <legend className="mb-1 font-medium">A test of that name is already in the account group:</legend>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="on-conflict"
                  checked={onConflict === 'skip'}
                  onChange={() => onConflictChange('skip')}
                />
                Skip it
              </label>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="on-conflict"
                  checked={onConflict === 'rename'}
                  onChange={() => onConflictChange('rename')}
                />
                Create mine with a suffix, for example &quot;
                {plan.find((cell) => cell.action === 'exists')?.testName} (2)&quot;
              </label>
            </fieldset>
          )}
        </div>
      )}
      <div className="flex flex-wrap justify-between gap-2">
        <Button disabled={backDisabled} onClick={onBack}>
          Back
        </Button>
        <div className="flex gap-2">
          <Button busy={planning} busyLabel="Planning" onClick={onPreview}>
            Preview Plan
          </Button>
          <Button
            variant="primary"
            disabled={runActive || ranAsShown}
            aria-describedby={ranAsShown ? 'execute-hint' : undefined}
            onClick={onExecute}
          >
            {runActive ? 'Creating Tests...' : 'Execute Bulk Tests'}
          </Button>
        </div>
      </div>
      {ranAsShown && (
        <p id="execute-hint" data-testid="execute-hint" className="text-right text-sm text-slate-600">
          This run has ended: to run again, start a new session.
        </p>
      )}
    </div>
  );
}
