import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The run a tool shows lives in the address (?run=<id>), so a reload finds it again. */
export function useRunParam(): [string | null, (id: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const open = useCallback(
    (id: string | null) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('run', id);
        else next.delete('run');
        return next;
      }),
    [setParams],
  );
  return [params.get('run'), open];
}
