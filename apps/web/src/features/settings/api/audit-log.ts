import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/audit-log: administrative actions, newest first (Super User). */
export const fetchAuditLog = async () => (await apiRequest<{ entries: AuditEntry[] }>('/api/audit-log')).entries;

export const auditLogQueryKey = ['audit-log'] as const;

export function useAuditLog() {
  return useQuery({ queryKey: auditLogQueryKey, queryFn: fetchAuditLog });
}
