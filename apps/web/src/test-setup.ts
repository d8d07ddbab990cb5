import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts from an empty document (Testing Library cleans up by itself only with Vitest globals).
afterEach(cleanup);
