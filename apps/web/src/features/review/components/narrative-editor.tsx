import { useRef, useState } from 'react';
import { REVIEW_MESSAGES, REVIEW_NARRATIVE_MAX_ITEMS, type ReviewNarrative } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/field';
import { cleanNarrative, sameNarrative, type NextStep } from '../narrative';
import { dateTime } from '../../../lib/dates';

type LineList = 'goals' | 'highlights';

const LIST_WORDS: Record<LineList, { title: string; one: string; add: string; hint: string }> = {
  goals: {
    title: 'Goals',
    one: 'Goal',
    add: 'Add a goal',
    hint: 'What the customer wants from the platform this term.',
  },
  highlights: {
    title: 'Highlights',
    one: 'Highlight',
    add: 'Add a highlight',
    hint: 'What went well in the period, in the customer’s words.',
  },
};

/**
 * Where the keyboard goes after "Add a …": into the new row's field, so typing goes on there and a second Space
 * does not add an empty row. `next` names the row about to be added; its field takes the focus once it is drawn.
 */
function useFocusAdded() {
  const pending = useRef<number | null>(null);
  return {
    next: (index: number) => {
      pending.current = index;
    },
    ref: (index: number) => (node: HTMLInputElement | null) => {
      if (node && pending.current === index) {
        pending.current = null;
        node.focus();
      }
    },
  };
}

function LinesEditor({
  list,
  lines,
  onChange,
}: {
  list: LineList;
  lines: string[];
  onChange: (lines: string[]) => void;
}) {
  const words = LIST_WORDS[list];
  const focus = useFocusAdded();
  return (
    <fieldset className="min-w-0 space-y-2" data-testid={`narrative-${list}`}>
      <legend className="text-base font-semibold">{words.title}</legend>
      <p className="text-sm text-slate-600">{words.hint}</p>
      {lines.map((line, index) => (
        <div key={index} className="flex items-end gap-2">
          <TextInput
            ref={focus.ref(index)}
            label={`${words.one} ${index + 1}`}
            value={line}
            maxLength={300}
            fieldClassName="min-w-0 flex-1"
            onChange={(event) => onChange(lines.map((old, at) => (at === index ? event.target.value : old)))}
          />
          <Button
            size="sm"
            className="mb-1"
            aria-label={`Remove ${words.one.toLowerCase()} ${index + 1}`}
            onClick={() => onChange(lines.filter((_, at) => at !== index))}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button
        size="sm"
        disabled={lines.length >= REVIEW_NARRATIVE_MAX_ITEMS}
        onClick={() => {
          focus.next(lines.length);
          onChange([...lines, '']);
        }}
      >
        {words.add}
      </Button>
    </fieldset>
  );
}

function StepsEditor({ steps, onChange }: { steps: NextStep[]; onChange: (steps: NextStep[]) => void }) {
  const focus = useFocusAdded();
  const change = (index: number, part: Partial<NextStep>) =>
    onChange(steps.map((old, at) => (at === index ? { ...old, ...part } : old)));
  return (
    <fieldset className="min-w-0 space-y-2" data-testid="narrative-next-steps">
      <legend className="text-base font-semibold">Next steps</legend>
      <p className="text-sm text-slate-600">What comes next, who owns it and when it is due.</p>
      {steps.map((next, index) => (
        <div
          key={index}
          className="grid gap-2 rounded-md border border-slate-200 p-2 sm:grid-cols-[1fr_12rem_10rem_auto] sm:items-end"
          data-testid="next-step"
        >
          <TextInput
            ref={focus.ref(index)}
            label={`Next step ${index + 1}`}
            value={next.step}
            maxLength={300}
            onChange={(event) => change(index, { step: event.target.value })}
          />
          <TextInput
            label={`Owner of step ${index + 1}`}
            value={next.owner}
            maxLength={120}
            onChange={(event) => change(index, { owner: event.target.value })}
          />
          <TextInput
            label={`Due date of step ${index + 1}`}
            type="date"
            value={next.due}
            onChange={(event) => change(index, { due: event.target.value })}
          />
          <Button
            size="sm"
            className="mb-1 justify-self-start"
            aria-label={`Remove next step ${index + 1}`}
            onClick={() => onChange(steps.filter((_, at) => at !== index))}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button
        size="sm"
        disabled={steps.length >= REVIEW_NARRATIVE_MAX_ITEMS}
        onClick={() => {
          focus.next(steps.length);
          onChange([...steps, { step: '', owner: '', due: '' }]);
        }}
      >
        Add a next step
      </Button>
    </fieldset>
  );
}

export interface NarrativeEditorProps {
  draft: ReviewNarrative;
  onChange: (draft: ReviewNarrative) => void;
  /** The narrative as it is kept now, and who saved it last. */
  kept: { narrative: ReviewNarrative; updatedAt: string | null; updatedBy: string | null };
  onSave: (narrative: ReviewNarrative) => Promise<unknown>;
  saving: boolean;
}

/**
 * The parts of the pack only a person writes, edited in place. Saved, they are kept for this customer and the next
 * pack starts from them.
 */
export function NarrativeEditor({ draft, onChange, kept, onSave, saving }: NarrativeEditorProps) {
  const [said, setSaid] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const changed = !sameNarrative(draft, kept.narrative);
  const edit = (next: ReviewNarrative) => {
    setSaid(null);
    onChange(next);
  };
  const save = () => {
    const { narrative, problem } = cleanNarrative(draft);
    if (problem) {
      setSaid({ tone: 'error', text: problem });
      return;
    }
    onSave(narrative).then(
      () => {
        onChange(narrative);
        setSaid({ tone: 'ok', text: REVIEW_MESSAGES.narrativeSaved });
      },
      (error: unknown) =>
        setSaid({
          tone: 'error',
          text:
            error instanceof Error && error.message ? error.message : 'The narrative could not be saved. Try again.',
        }),
    );
  };
  return (
    <div className="space-y-4">
      <LinesEditor list="goals" lines={draft.goals} onChange={(goals) => edit({ ...draft, goals })} />
      <LinesEditor
        list="highlights"
        lines={draft.highlights}
        onChange={(highlights) => edit({ ...draft, highlights })}
      />
      <StepsEditor steps={draft.nextSteps} onChange={(nextSteps) => edit({ ...draft, nextSteps })} />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={save} busy={saving} busyLabel="Saving" disabled={!changed && !saving}>
          Save the narrative
        </Button>
        <p
          role={said?.tone === 'error' ? 'alert' : 'status'}
          className={`text-sm ${said?.tone === 'error' ? 'text-red-700' : 'text-slate-700'}`}
          data-testid="narrative-said"
        >
          {said?.text ??
            (changed
              ? 'Not saved yet: “Build the pack” saves it first.'
              : kept.updatedAt
                ? `Kept since ${dateTime(kept.updatedAt)}${kept.updatedBy ? `, by ${kept.updatedBy}` : ''}.`
                : 'Nothing kept for this customer yet.')}
        </p>
      </div>
    </div>
  );
}
