import { useState } from 'react';
import { REVIEW_KEY_TESTS_MAX, type ReviewPreview } from '@ce/contract';
import { CheckList } from '../../../components/ui/check-list';

type Proposed = ReviewPreview['proposedKeyTests'][number];

export const KEY_TESTS_TOO_MANY = `A pack follows at most ${REVIEW_KEY_TESTS_MAX} key tests: untick one before you tick another.`;

const matches = (test: Proposed, needle: string) =>
  test.testName.toLowerCase().includes(needle) || test.accountGroup.toLowerCase().includes(needle);

const availabilityText = (value: number | null) =>
  value === null ? 'not measured' : `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })}% available`;

/**
 * The tests the pack follows week over week: those the stored measurements propose, worst first; at most
 * REVIEW_KEY_TESTS_MAX of them.
 */
export function KeyTests({
  proposed,
  selected,
  onChange,
}: {
  proposed: readonly Proposed[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
}) {
  const [tooMany, setTooMany] = useState(false);
  if (proposed.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="key-tests-none">
        No test measured in this period yet: a watch’s runs over this customer measure its tests.
      </p>
    );
  return (
    <div className="space-y-2">
      <CheckList
        items={proposed}
        itemKey={(test) => test.testId}
        label="Key tests"
        searchLabel="Search the tests"
        noun="Tests"
        rows="growing"
        height="20rem"
        matches={matches}
        selected={new Set(selected)}
        onSelectedChange={(next) => {
          // Kept in the proposal's order (worst first), so the pack's chart lists them as the person sees them.
          const ordered = proposed.map((test) => test.testId).filter((id) => next.has(id));
          setTooMany(ordered.length > REVIEW_KEY_TESTS_MAX);
          if (ordered.length <= REVIEW_KEY_TESTS_MAX) onChange(ordered);
        }}
        renderItem={(test) => (
          <span className="min-w-0 break-words">
            {test.testName}{' '}
            <span className="text-slate-600">
              ({test.accountGroup}, {availabilityText(test.availability)})
            </span>
          </span>
        )}
        data-testid="key-tests"
      />
      <p
        role={tooMany ? 'alert' : undefined}
        className={`text-sm ${tooMany ? 'text-red-700' : 'text-slate-600'}`}
        data-testid="key-tests-said"
      >
        {tooMany
          ? KEY_TESTS_TOO_MANY
          : selected.length === 0
            ? 'None chosen: the pack follows the worst ones proposed.'
            : `${selected.length} of at most ${REVIEW_KEY_TESTS_MAX} chosen, worst first as the measurements propose.`}
      </p>
    </div>
  );
}
