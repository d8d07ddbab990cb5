import { describe, expect, it } from 'vitest';
import { fieldWords } from './field-words.js';

const json = (value: unknown) => JSON.stringify(value);
const widget = (title: string, extra: Record<string, unknown> = {}) => ({
  type: 'Line Chart',
  title,
  dataSource: 'CLOUD_AND_ENTERPRISE_AGENTS',
  metric: 'WEB_AVAILABILITY',
  ...extra,
});

describe('fieldWords: lists of objects, element by element', () => {
  it("says a dashboard's widgets added, removed and changed by their titles, never the arrays as JSON", () => {
    const before = [
      widget('Latency'),
      widget('Loss', { filters: { TEST: ['http-server: Portal', 'dns-trace: DNS - example.com'] } }),
    ];
    const after = [
      widget('Loss', { filters: { TEST: ['http-server: Portal'] }, metric: 'LOSS' }),
      widget('Availability'),
    ];
    const words = fieldWords({ path: 'widgets', before: json(before), after: json(after) });
    expect(words).toBe(
      "widgets: widget 'Availability' added; widget 'Latency' removed; " +
        "widget 'Loss': filters.TEST: removed 'dns-trace: DNS - example.com', metric: WEB_AVAILABILITY → LOSS",
    );
    expect(words).not.toContain('CLOUD_AND_ENTERPRISE_AGENTS');
  });

  it('names elements by their id first, then their name or title, whatever the key order', () => {
    const rules = [
      { id: 7, name: 'Old name', severity: 'major' },
      { id: 8, name: 'Other', severity: 'minor' },
    ];
    const renamed = [
      { severity: 'minor', name: 'Other', id: 8 },
      { id: 7, name: 'New name', severity: 'major' },
    ];
    expect(fieldWords({ path: 'alertRules', before: json(rules), after: json(renamed) })).toBe(
      'alertRules: alertRule 7: name: Old name → New name',
    );
    expect(fieldWords({ path: 'alertRules', before: json(rules), after: json([...rules].reverse()) })).toBe(
      'alertRules: the same items in another order',
    );
  });

  it('says a list that came or went element by element, and elements nothing names as wholes', () => {
    expect(fieldWords({ path: 'widgets', before: null, after: json([widget('Availability')]) })).toBe(
      "widgets: widget 'Availability' added",
    );
    expect(fieldWords({ path: 'notifications', before: json([{ a: 1 }, { b: 2 }]), after: json([{ a: 1 }]) })).toBe(
      'notifications: notification {"b":2} removed',
    );
    expect(fieldWords({ path: 'steps', before: json([{ a: 1 }]), after: json([{ a: 2 }]) })).toBe(
      'steps: step 1: a: 1 → 2',
    );
  });

  it('keeps the words of scalar values and lists as they were', () => {
    expect(fieldWords({ path: 'interval', before: '300', after: '1800' })).toBe('interval: 300 → 1800');
    expect(fieldWords({ path: 'tests', before: json(['dns-trace: DNS - example.com']), after: '[]' })).toBe(
      "tests: removed 'dns-trace: DNS - example.com'",
    );
  });
});
