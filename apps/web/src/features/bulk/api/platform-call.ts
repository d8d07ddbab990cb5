import type { BulkAccountGroup } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export const post = <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'POST', body });

export type Scope = { token: string; accountGroups: BulkAccountGroup[] };
