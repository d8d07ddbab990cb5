import { describe, expect, it } from 'vitest';
import { countsInWords, fieldWords } from './field-words';

describe('fieldWords', () => {
  it('says a value before and after, whole', () => {
    expect(fieldWords({ path: 'interval', before: '300', after: '1800' })).toBe('interval: 300 → 1800');
    expect(fieldWords({ path: 'url', before: null, after: 'https://a.example/x' })).toBe(
      'url: (none) → https://a.example/x',
    );
  });

  it('says what a list gained and lost, not two lists of JSON', () => {
    expect(fieldWords({ path: 'agents', before: '["London","Paris"]', after: '["Paris","Tokyo","Sydney"]' })).toBe(
      "agents: added 'Tokyo', 'Sydney'; removed 'London'",
    );
    expect(fieldWords({ path: 'agents', before: '["a","b"]', after: '["b","a"]' })).toBe(
      'agents: the same items in another order',
    );
  });

  it('says lists of objects element by element, not as two arrays of JSON', () => {
    expect(fieldWords({ path: 'rules', before: '[{"a":1}]', after: '[]' })).toBe('rules: rule {"a":1} removed');
    expect(fieldWords({ path: 'widgets', before: '[{"title":"Loss"}]', after: '[{"title":"Latency"}]' })).toBe(
      "widgets: widget 'Latency' added; widget 'Loss' removed",
    );
  });

  it("says a backup's counts in words, one or many, kinds with none left out", () => {
    expect(countsInWords({ tag: 3, test: 13, dashboard: 1, 'alert-rule': 5, 'endpoint-label': 0 })).toBe(
      '3 tags, 13 tests, 1 dashboard, 5 alert rules',
    );
    expect(countsInWords({})).toBe('');
  });
});
