/**
 * Pushing a dashboard into another account group: its definition names tests, agents and tags of the
 * group it came from, by id. Those ids mean nothing (or something else) in the target group, so each
 * reference is mapped by name to the target's own object, or dropped with the reason, before the
 * dashboard is created there. The caller shows the plan first, then creates the dashboard and rewrites its
 * layout to the new widget ids (`rewriteLayout`).
 */
import { z } from 'zod';
import { isRecord, recordsOf } from '../../core/json.js';

/** Read-only fields of a dashboard (v7 document) that a POST must not carry. */
const DASHBOARD_READ_ONLY = [
  'dashboardId',
  'aid',
  'isBuiltIn',
  'isMigratedReport',
  'isDefaultForUser',
  'isDefaultForAccount',
  'schedule',
  '_links',
  'createdBy',
  'modifiedBy',
  'modifiedDate',
  'dashboardCreatedBy',
  'dashboardModifiedBy',
  'dashboardModifiedDate',
  'accountId',
  'globalOverride',
  'migratedReport',
  'apiLink',
];
const WIDGET_READ_ONLY = ['id', 'embedUrl', 'apiLink', '_links'];

/** A dashboard's definition as the gallery keeps it: its fields, and its widgets' (each an object). */
export type StoredDefinition = Record<string, unknown> & { widgets: Record<string, unknown>[] };

/**
 * The definition the gallery keeps: the platform's answer without its read-only fields. Widget ids stay,
 * because the layout and the stored references name them; a push drops them (`planRemap`).
 */
export function storedDefinition(dashboard: Record<string, unknown>): StoredDefinition {
  const widgets = recordsOf(dashboard.widgets);
  return {
    ...Object.fromEntries(Object.entries(dashboard).filter(([key]) => !DASHBOARD_READ_ONLY.includes(key))),
    widgets: widgets.map((widget) =>
      Object.fromEntries(Object.entries(widget).filter(([key]) => key === 'id' || !WIDGET_READ_ONLY.includes(key))),
    ),
  };
}

/** The ids a dashboard's widgets name, by the group objects they are (what a push must map by name). */
export function referencedIds(dashboard: Record<string, unknown>): Record<keyof GroupObjects, Set<string>> {
  const ids = { tests: new Set<string>(), agents: new Set<string>(), tags: new Set<string>() };
  for (const widget of recordsOf(dashboard.widgets)) {
    const filters = widget.filters;
    if (!filters || typeof filters !== 'object') continue;
    for (const [kind, values] of Object.entries(filters)) {
      const objects = REMAPPED[kind];
      if (objects && Array.isArray(values)) for (const value of values) ids[objects].add(String(value));
    }
  }
  return ids;
}

export interface Named {
  id: string;
  name: string;
}

/** What a group holds that a widget may point at. */
export interface GroupObjects {
  tests: Named[];
  agents: Named[];
  tags: Named[];
}

/** Filter kinds remapped, and the group objects each one names. */
const REMAPPED: Record<string, keyof GroupObjects> = { TEST: 'tests', AGENT: 'agents', TAG: 'tags' };

export interface MappedReference {
  kind: string;
  widget: string;
  from: Named;
  to: Named;
}
export interface DroppedReference {
  kind: string;
  widget: string;
  id: string;
  name?: string;
  reason: string;
}

export interface RemapPlan {
  /** The body for `POST /dashboards` in the target group. */
  body: StoredDefinition;
  mapped: MappedReference[];
  dropped: DroppedReference[];
  /** The source widgets' ids in order: the layout names them; `rewriteLayout` swaps in the new ones. */
  sourceWidgetIds: string[];
}

function byName(objects: Named[]): Map<string, Named[]> {
  const index = new Map<string, Named[]>();
  for (const object of objects) index.set(object.name, [...(index.get(object.name) ?? []), object]);
  return index;
}

/** The plan for pushing `dashboard` from the `source` group's objects into the `target` group's. */
export function planRemap(dashboard: Record<string, unknown>, source: GroupObjects, target: GroupObjects): RemapPlan {
  const mapped: MappedReference[] = [];
  const dropped: DroppedReference[] = [];
  const sourceById = {
    tests: new Map(source.tests.map((item) => [item.id, item])),
    agents: new Map(source.agents.map((item) => [item.id, item])),
    tags: new Map(source.tags.map((item) => [item.id, item])),
  };
  const targetByName = { tests: byName(target.tests), agents: byName(target.agents), tags: byName(target.tags) };
  const targetIds = {
    tests: new Set(target.tests.map((item) => item.id)),
    agents: new Set(target.agents.map((item) => item.id)),
    tags: new Set(target.tags.map((item) => item.id)),
  };

  const widgets = recordsOf(dashboard.widgets);
  const sourceWidgetIds = widgets.map((widget) => String(widget.id ?? ''));
  const body: Record<string, unknown> = Object.fromEntries(
    Object.entries(dashboard).filter(([key]) => !DASHBOARD_READ_ONLY.includes(key) && key !== 'widgets'),
  );
  if (body.globalFilterId !== undefined) {
    dropped.push({
      kind: 'GLOBAL_FILTER',
      widget: '(dashboard)',
      id: String(body.globalFilterId),
      reason: 'Global filters belong to their account group',
    });
    delete body.globalFilterId;
  }

  const bodyWidgets = widgets.map((widget): Record<string, unknown> => {
    const title = String(widget.title ?? widget.type ?? 'widget');
    const copy = Object.fromEntries(Object.entries(widget).filter(([key]) => !WIDGET_READ_ONLY.includes(key)));
    const filters = widget.filters;
    if (!filters || typeof filters !== 'object') return copy;
    const remapped: Record<string, string[]> = {};
    for (const [kind, values] of Object.entries(filters)) {
      const ids = Array.isArray(values) ? values.map(String) : [];
      const objects = REMAPPED[kind];
      if (!objects) {
        for (const id of ids)
          dropped.push({ kind, widget: title, id, reason: `${kind} filters are not remapped between account groups` });
        continue;
      }
      const kept: string[] = [];
      for (const id of ids) {
        const from = sourceById[objects].get(id);
        if (!from) {
          // A cloud agent has the same id everywhere: keep an id the target knows, drop one nobody can name.
          if (targetIds[objects].has(id)) kept.push(id);
          else dropped.push({ kind, widget: title, id, reason: 'Not found in the source account group' });
          continue;
        }
        const candidates = targetByName[objects].get(from.name) ?? [];
        if (candidates.length === 1 && candidates[0]) {
          kept.push(candidates[0].id);
          mapped.push({ kind, widget: title, from, to: candidates[0] });
        } else
          dropped.push({
            kind,
            widget: title,
            id,
            name: from.name,
            reason: candidates.length
              ? `${candidates.length} objects of that name in the target account group`
              : 'No object of that name in the target account group',
          });
      }
      if (kept.length) remapped[kind] = kept;
    }
    return { ...copy, filters: remapped };
  });
  return { body: { ...body, widgets: bodyWidgets }, mapped, dropped, sourceWidgetIds };
}

/** A layout that places widgets: each position names a widget by id. */
const positionedLayout = z.looseObject({
  details: z.looseObject({ widgetPositioning: z.array(z.looseObject({ id: z.unknown().optional() })) }),
});

/**
 * The layout after creation: each position named a source widget; it now names the created widget in the
 * same place of the list. Positions of widgets that no longer exist are dropped.
 */
export function rewriteLayout(
  layout: unknown,
  sourceWidgetIds: string[],
  createdWidgetIds: string[],
): Record<string, unknown> | undefined {
  const positioned = positionedLayout.safeParse(layout);
  if (!positioned.success) return isRecord(layout) ? layout : undefined;
  const { details } = positioned.data;
  const next = new Map(sourceWidgetIds.map((id, index) => [id, createdWidgetIds[index]]));
  return {
    ...positioned.data,
    details: {
      ...details,
      widgetPositioning: details.widgetPositioning.flatMap((position) => {
        const id = next.get(String(position.id ?? ''));
        return id ? [{ ...position, id }] : [];
      }),
    },
  };
}
