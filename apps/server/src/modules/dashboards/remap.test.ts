import { describe, expect, it } from 'vitest';
import { generateWorld } from '@ce/sandbox';
import { planRemap, rewriteLayout, type GroupObjects } from './remap.js';

const source: GroupObjects = {
  tests: [
    { id: 't1', name: 'www.webex.com - http-server' },
    { id: 't2', name: 'Payroll portal' },
    { id: 't3', name: 'Twin' },
  ],
  agents: [{ id: 'ea-1', name: 'prod-ea-1' }],
  tags: [{ id: 'tag-1', name: 'environment: production' }],
};
const target: GroupObjects = {
  tests: [
    { id: 'x1', name: 'www.webex.com - http-server' },
    { id: 'x3', name: 'Twin' },
    { id: 'x4', name: 'Twin' },
  ],
  agents: [
    { id: '104', name: 'Ashburn, VA' },
    { id: 'eb-9', name: 'staging-ea-1' },
  ],
  tags: [{ id: 'tag-9', name: 'environment: production' }],
};

const dashboard = {
  dashboardId: 'd-1',
  aid: '1001',
  title: 'Prod overview',
  isBuiltIn: false,
  dashboardModifiedDate: '2026-10-01T00:00:00Z',
  globalFilterId: 'gf-1',
  _links: { self: { href: 'x' } },
  layout: {
    type: 'grid',
    details: {
      widgetPositioning: [
        { id: 'w-a', x: 0 },
        { id: 'w-b', x: 6 },
      ],
    },
  },
  widgets: [
    {
      id: 'w-a',
      type: 'Time Series: Line',
      title: 'Availability',
      _links: { self: { href: 'y' } },
      filters: { TEST: ['t1', 't2', 't3'], AGENT: ['104', 'ea-1'], TAG: ['tag-1'], MONITOR: ['m-1'] },
    },
    { id: 'w-b', type: 'Number', title: 'Alerts' },
  ],
};

describe('remapping a dashboard into another account group', () => {
  const plan = planRemap(dashboard, source, target);
  const widgets = plan.body.widgets as Record<string, unknown>[];

  it('maps a test present in both groups by name, and drops and reports one that is absent or ambiguous', () => {
    expect((widgets[0]?.filters as Record<string, string[]>).TEST).toEqual(['x1']);
    expect(plan.mapped).toContainEqual({
      kind: 'TEST',
      widget: 'Availability',
      from: { id: 't1', name: 'www.webex.com - http-server' },
      to: { id: 'x1', name: 'www.webex.com - http-server' },
    });
    expect(plan.dropped).toContainEqual({
      kind: 'TEST',
      widget: 'Availability',
      id: 't2',
      name: 'Payroll portal',
      reason: 'No object of that name in the target account group',
    });
    expect(plan.dropped).toContainEqual(
      expect.objectContaining({ id: 't3', reason: '2 objects of that name in the target account group' }),
    );
  });

  it('keeps a cloud agent (same id everywhere), maps tags by key and value, drops kinds it cannot remap', () => {
    const filters = widgets[0]?.filters as Record<string, string[]>;
    expect(filters.AGENT).toEqual(['104']);
    expect(plan.dropped).toContainEqual(expect.objectContaining({ kind: 'AGENT', id: 'ea-1', name: 'prod-ea-1' }));
    expect(filters.TAG).toEqual(['tag-9']);
    expect(filters.MONITOR).toBeUndefined();
    expect(plan.dropped).toContainEqual(expect.objectContaining({ kind: 'MONITOR', id: 'm-1' }));
    expect(plan.dropped).toContainEqual(expect.objectContaining({ kind: 'GLOBAL_FILTER', id: 'gf-1' }));
  });

  it('sends no read-only field, and rewrites the layout to the created widgets', () => {
    for (const field of ['dashboardId', 'aid', 'isBuiltIn', 'dashboardModifiedDate', '_links', 'globalFilterId'])
      expect(plan.body, field).not.toHaveProperty(field);
    expect(
      widgets.map((widget) => Object.keys(widget).includes('id') || Object.keys(widget).includes('_links')),
    ).toEqual([false, false]);
    expect(plan.sourceWidgetIds).toEqual(['w-a', 'w-b']);
    const layout = rewriteLayout(dashboard.layout, plan.sourceWidgetIds, ['n-1', 'n-2']);
    expect((layout?.details as { widgetPositioning: { id: string; x: number }[] }).widgetPositioning).toEqual([
      { id: 'n-1', x: 0 },
      { id: 'n-2', x: 6 },
    ]);
  });

  it('drops from the layout a position that names no created widget, and keeps the others', () => {
    const layout = {
      type: 'grid',
      details: { columns: 12, widgetPositioning: [{ id: 'w-a', x: 0 }, { x: 3 }, { id: 'w-gone', x: 6 }] },
    };
    expect(rewriteLayout(layout, ['w-a'], ['n-1'])).toEqual({
      type: 'grid',
      details: { columns: 12, widgetPositioning: [{ id: 'n-1', x: 0 }] },
    });
  });

  it('finds, in the sandbox world, test names shared by two account groups and maps them to the target ids', () => {
    const world = generateWorld({ now: Date.UTC(2026, 10, 1) });
    const [first, second] = world.accountGroups;
    const named = (aid: string | undefined) =>
      world.tests.filter((test) => test.aid === aid).map((test) => ({ id: test.testId, name: test.testName }));
    const from = named(first?.aid);
    const to = named(second?.aid);
    const shared = from.filter((test) => to.filter((other) => other.name === test.name).length === 1);
    expect(shared.length).toBeGreaterThan(0);
    const result = planRemap(
      { title: 'Shared', widgets: [{ id: 'w', type: 'Table', filters: { TEST: from.map((test) => test.id) } }] },
      { tests: from, agents: [], tags: [] },
      { tests: to, agents: [], tags: [] },
    );
    const kept = ((result.body.widgets as Record<string, unknown>[])[0]?.filters as Record<string, string[]>).TEST;
    expect(kept).toEqual(shared.map((test) => to.find((other) => other.name === test.name)?.id));
    expect(result.mapped.length + result.dropped.length).toBe(from.length);
  });
});
