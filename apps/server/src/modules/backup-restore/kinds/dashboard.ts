import { z } from 'zod';
import {
  eachDetail,
  isJson,
  namesField,
  namesOf,
  objectField,
  objects,
  objectsField,
  split,
  strings,
  type BackupKindDescriptor,
} from './kind.js';

/**
 * Dashboards: a widget's filters name tests and agents by id on the platform, by key and name here (restore
 * maps them back); the widgets' own ids kept in `server`.
 */
export const dashboard: BackupKindDescriptor<'dashboard'> = {
  kind: 'dashboard',
  folder: 'dashboards',
  serverFields: ['dashboardId', 'isBuiltIn'],
  configShape: z.looseObject({
    widgets: objectsField({ filters: objectField({ TEST: namesField, AGENT: namesField }) }),
  }),
  async read({ session, aid, emit, testKeys, agents }) {
    const dashboards = await session.dashboards.list(aid);
    await eachDetail(dashboards, async (listed) => {
      const detail = await session.dashboards.get(listed.dashboardId, aid);
      const { widgets, ...rest } = detail;
      const parts = split(rest, dashboard.serverFields);
      const agentNames = new Map(await agents);
      const widgetParts = objects(widgets).map((widget) => {
        const parts = split(widget, ['id', 'widgetId']);
        const filters = parts.config.filters;
        if (isJson(filters)) {
          const named = (ids: unknown, names: (id: string) => string | undefined) =>
            namesOf(ids, names, (id) => `#${id}`);
          parts.config.filters = {
            ...filters,
            ...(filters.TEST ? { TEST: named(filters.TEST, (id) => testKeys.get(id)) } : {}),
            ...(filters.AGENT ? { AGENT: named(filters.AGENT, (id) => agentNames.get(id)) } : {}),
          };
          parts.server.filters = filters;
        }
        return parts;
      });
      parts.config.widgets = widgetParts.map((widget) => widget.config);
      parts.server.widgets = widgetParts.map((widget) => widget.server);
      emit({ kind: 'dashboard', key: detail.title, name: detail.title, ...parts });
    });
  },
  restore: {
    phase: 1,
    // The layout names the old widgets' ids: the platform lays the widgets out again. Widgets' agent filters
    // name agents (mapped here); their test filters name tests by key (mapped when sent).
    write({ config }, target, ids) {
      const { layout: _layout, widgets, ...body } = config;
      const testKeys = new Set<string>();
      const mapped = objects(widgets).map((widget) => {
        const filters = widget.filters;
        if (!isJson(filters)) return widget;
        for (const testKey of strings(filters.TEST)) testKeys.add(testKey);
        const agents = strings(filters.AGENT).flatMap((name) => {
          const id = target.agents.get(name);
          return id ? [id] : [];
        });
        return { ...widget, filters: { ...filters, ...(filters.AGENT ? { AGENT: agents } : {}) } };
      });
      return {
        body: { ...body, widgets: mapped },
        tests: { keys: [...testKeys], known: Object.fromEntries(ids('test')) },
      };
    },
    /** The widgets' test filters by the tests' ids. */
    send({ body, tests }, ids) {
      if (!tests) return body;
      const widgets = objects(body.widgets).map((widget) => {
        const filters = widget.filters;
        if (!isJson(filters) || !Array.isArray(filters.TEST)) return widget;
        return { ...widget, filters: { ...filters, TEST: ids('test', { ...tests, keys: strings(filters.TEST) }) } };
      });
      return { ...body, widgets };
    },
    nameOf: (body) => String(body.title),
    undoesUpdate: true,
    platform: {
      create: async (session, _target, body, aid) => (await session.dashboards.create(body, aid)).dashboardId,
      update: (session, _target, id, body, aid) => session.dashboards.update(id, body, aid),
      delete: (session, _target, id, aid) => session.dashboards.delete(id, aid),
      list: async (session, _target, aid) =>
        (await session.dashboards.list(aid)).map((found) => ({ id: found.dashboardId, name: found.title })),
    },
  },
};
