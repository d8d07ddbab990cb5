import { z } from 'zod';
import { dashboardSchema } from '../schemas.js';
import { type Caller } from './caller.js';

export const dashboards = (caller: Caller) => ({
  /** GET /dashboards answers a bare array. */
  list: (aid?: string, signal?: AbortSignal) =>
    caller.request(z.array(dashboardSchema), 'dashboards', 'dashboards', { aid, signal }),
  get: (dashboardId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(dashboardSchema, `dashboards/${encodeURIComponent(dashboardId)}`, 'dashboard', { aid, signal }),
  create: (body: Record<string, unknown>, aid?: string, signal?: AbortSignal) =>
    caller.request(dashboardSchema, 'dashboards', 'created dashboard', {
      method: 'POST',
      body,
      aid,
      signal,
      idempotent: false,
    }),
  /** PUT replaces the dashboard: widgets sent with their ids are kept, the layout names them. */
  update: (dashboardId: string, body: Record<string, unknown>, aid?: string, signal?: AbortSignal) =>
    caller.request(dashboardSchema, `dashboards/${encodeURIComponent(dashboardId)}`, 'updated dashboard', {
      method: 'PUT',
      body,
      aid,
      signal,
    }),
  delete: (dashboardId: string, aid?: string, signal?: AbortSignal) =>
    caller.http.call<void>(caller.auth, `dashboards/${encodeURIComponent(dashboardId)}`, {
      method: 'DELETE',
      aid,
      signal,
    }),
  widget: (dashboardId: string, widgetId: string, aid?: string, signal?: AbortSignal) =>
    caller.http.call<Record<string, unknown>>(
      caller.auth,
      `dashboards/${encodeURIComponent(dashboardId)}/widgets/${encodeURIComponent(widgetId)}`,
      { aid, signal },
    ),
});
