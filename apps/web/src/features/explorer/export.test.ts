import { describe, expect, it } from 'vitest';
import { firstList, toCsv } from './export';

describe('exporting an answer', () => {
  it("finds the answer's list and writes it as CSV, nested values as JSON, formulas disarmed", () => {
    const body = {
      tests: [
        { testId: '1', testName: 'Web, "main"', agents: [{ agentId: 'a' }], _links: { self: {} } },
        { testId: '2', testName: '=HYPERLINK("x")', enabled: false },
      ],
      _links: {},
    };
    expect(firstList(body)).toHaveLength(2);
    expect(toCsv(body)).toBe(
      'testId,testName,agents,enabled\r\n1,"Web, ""main""","[{""agentId"":""a""}]",\r\n2,"\'=HYPERLINK(""x"")",,false\r\n',
    );
    expect(toCsv({ status: 'ok' })).toBeNull();
    expect(toCsv(['a', 'b'])).toBe('value\r\na\r\nb\r\n');
  });
});
