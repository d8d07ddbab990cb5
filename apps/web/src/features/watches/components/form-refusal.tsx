import { useEffect, useRef, useState } from 'react';
import { Banner } from '../../../components/ui/banner';

/**
 * A refusal about the whole form, said above it: focused when said (the busy button it came from let go of the
 * focus, and a phone's dialog may be scrolled far below it), so keyboard and screen-reader users land on it.
 */
export function useFormRefusal() {
  const [refusal, setRefusal] = useState<{ text: string; at: number } | null>(null);
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (refusal) shown.current?.focus();
  }, [refusal]);
  return {
    say: (text: string) => setRefusal({ text, at: Date.now() }),
    clear: () => setRefusal(null),
    banner: refusal && (
      <div ref={shown} tabIndex={-1} className="outline-none" data-testid="watch-refusal">
        <Banner tone="error">{refusal.text}</Banner>
      </div>
    ),
  };
}
