import { useEffect, useRef } from 'react';

/**
 * When one of `ids` is gone from the page (a watch deleted, a waiver ended) and focus went with it, focus moves to
 * the heading `headingId` of the list it was in, not to the page's body (where a keyboard or screen-reader user
 * would have to start again from the top).
 */
export function useFocusAfterRemoval(ids: readonly string[], headingId: string): void {
  const previous = useRef<readonly string[]>(ids);
  const key = ids.join(' ');
  useEffect(() => {
    const now = key === '' ? [] : key.split(' ');
    const removed = previous.current.some((id) => !now.includes(id));
    previous.current = now;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (removed && lost) document.getElementById(headingId)?.focus();
  }, [key, headingId]);
}
