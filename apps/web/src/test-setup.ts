import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { toast } from './components/ui/toast-store';

/** No toast left by another test: the files of a worker share the app's modules, its toast store too. */
const noToasts = () => {
  for (const shown of toast.getSnapshot()) toast.dismiss(shown.id);
};

// Each test starts from an empty document (Testing Library cleans up by itself only with Vitest globals).
beforeEach(noToasts);
afterEach(() => {
  cleanup();
  noToasts();
});
