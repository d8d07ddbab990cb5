import type { FastifyInstance } from 'fastify';
import type { Dashboard, Widget } from '../model.js';
import { problem, overLimit } from './http.js';
import type { RouteContext } from './context.js';

function dashboardWidgets(value: unknown, existing: Widget[], newId: () => string): Widget[] {
  const widgets = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  const known = new Set(existing.map((widget) => widget.id));
  return widgets.map((widget, index) => {
    const filters =
      widget.filters && typeof widget.filters === 'object'
        ? Object.fromEntries(
            Object.entries(widget.filters as Record<string, unknown>).map(([kind, ids]) => [
              kind,
              Array.isArray(ids) ? ids.map(String) : [],
            ]),
          )
        : undefined;
    return {
      id: typeof widget.id === 'string' && known.has(widget.id) ? widget.id : `${newId()}-${index}`,
      type: String(widget.type ?? 'Number'),
      title: String(widget.title ?? `Widget ${index + 1}`),
      visualMode: widget.visualMode === 'Half screen' ? 'Half screen' : 'Full',
      dataSource: String(widget.dataSource ?? 'CLOUD_AND_ENTERPRISE_AGENTS'),
      ...(typeof widget.metricGroup === 'string' ? { metricGroup: widget.metricGroup } : {}),
      ...(typeof widget.metric === 'string' ? { metric: widget.metric } : {}),
      ...(filters ? { filters } : {}),
    };
  });
}

function dashboardLayout(value: unknown): Dashboard['layout'] {
  if (!value || typeof value !== 'object') return undefined;
  const layout = value as { type?: unknown; details?: { widgetPositioning?: unknown } };
  const positions = Array.isArray(layout.details?.widgetPositioning) ? layout.details.widgetPositioning : [];
  return {
    type: layout.type === 'vertical' ? 'vertical' : 'grid',
    details: {
      widgetPositioning: (positions as Record<string, unknown>[]).map((position) => ({
        id: String(position.id ?? ''),
        x: Number(position.x ?? 0),
        y: Number(position.y ?? 0),
        w: Number(position.w ?? 1),
        h: Number(position.h ?? 1),
      })),
    },
  };
}

/** Dashboards and their widgets. */
export function dashboardRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get('/dashboards', async (request, reply) => {
    const { group, serializer } = caller(request);
    return hal(reply).send(
      state.world.dashboards
        .filter((dashboard) => dashboard.aid === group.aid)
        .map((dashboard) => serializer.dashboard(dashboard)),
    );
  });

  app.get<{ Params: { dashboardId: string } }>('/dashboards/:dashboardId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const dashboard = state.world.dashboards.find(
      (candidate) => candidate.dashboardId === request.params.dashboardId && candidate.aid === group.aid,
    );
    if (!dashboard) return problem(reply, 404, 'Not Found', `Dashboard ${request.params.dashboardId} not found`);
    return hal(reply).send(serializer.dashboard(dashboard));
  });

  app.post('/dashboards', async (request, reply) => {
    const { group, serializer, token } = caller(request);
    const full = overLimit(
      reply,
      state.world.dashboards.filter((item) => item.aid === group.aid).length,
      'dashboards',
      'account group',
    );
    if (full) return full;
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.title !== undefined && typeof body.title !== 'string') {
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
        { code: 'INVALID', field: 'title', message: 'title must be a string' },
      ]);
    }
    const dashboard: Dashboard = {
      dashboardId: state.newId().padStart(24, '0'),
      aid: group.aid,
      title: typeof body.title === 'string' ? body.title : 'Untitled dashboard',
      description: typeof body.description === 'string' ? body.description : '',
      isBuiltIn: false,
      isPrivate: body.isPrivate === true,
      createdBy: state.world.users.find((user) => user.orgId === token.orgId)?.uid ?? '1',
      modifiedDate: new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      widgets: dashboardWidgets(body.widgets, [], () => state.newId()),
      layout: dashboardLayout(body.layout),
    };
    state.world.dashboards.push(dashboard);
    reply.header('Location', serializer.link(`/dashboards/${dashboard.dashboardId}`).href);
    return hal(reply).status(201).send(serializer.dashboard(dashboard));
  });

  app.put<{ Params: { dashboardId: string } }>('/dashboards/:dashboardId', async (request, reply) => {
    const { group, serializer } = caller(request);
    const dashboard = state.world.dashboards.find(
      (candidate) => candidate.dashboardId === request.params.dashboardId && candidate.aid === group.aid,
    );
    if (!dashboard) return problem(reply, 404, 'Not Found', `Dashboard ${request.params.dashboardId} not found`);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.title !== 'string' || body.title.trim() === '') {
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
        { code: 'INVALID', field: 'title', message: 'title is required' },
      ]);
    }
    dashboard.title = body.title;
    if (typeof body.description === 'string') dashboard.description = body.description;
    if (typeof body.isPrivate === 'boolean') dashboard.isPrivate = body.isPrivate;
    // A widget sent with the id of one of this dashboard's widgets keeps it; others are new.
    dashboard.widgets = dashboardWidgets(body.widgets, dashboard.widgets, () => state.newId());
    dashboard.layout = dashboardLayout(body.layout);
    dashboard.modifiedDate = new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return hal(reply).send(serializer.dashboard(dashboard));
  });

  app.delete<{ Params: { dashboardId: string } }>('/dashboards/:dashboardId', async (request, reply) => {
    const { group } = caller(request);
    const index = state.world.dashboards.findIndex(
      (candidate) => candidate.dashboardId === request.params.dashboardId && candidate.aid === group.aid,
    );
    if (index < 0) return problem(reply, 404, 'Not Found', `Dashboard ${request.params.dashboardId} not found`);
    state.world.dashboards.splice(index, 1);
    return reply.status(204).send();
  });

  app.get<{ Params: { dashboardId: string; widgetId: string } }>(
    '/dashboards/:dashboardId/widgets/:widgetId',
    async (request, reply) => {
      const { group, serializer } = caller(request);
      const dashboard = state.world.dashboards.find(
        (candidate) => candidate.dashboardId === request.params.dashboardId && candidate.aid === group.aid,
      );
      const widget = dashboard?.widgets.find((candidate) => candidate.id === request.params.widgetId);
      if (!dashboard || !widget) return problem(reply, 404, 'Not Found', 'Widget not found');
      const end = Math.floor(worldNow() / 300_000) * 300_000;
      return hal(reply).send({
        binSize: 300,
        data: {
          points: Array.from({ length: 12 }, (_, index) => ({
            timestamp: Math.floor((end - (11 - index) * 300_000) / 1000),
            numberOfDataPoints: 10,
            value: 95 + ((index * 7) % 5),
          })),
        },
        _links: { self: serializer.link(`/dashboards/${dashboard.dashboardId}/widgets/${widget.id}`) },
      });
    },
  );
}
