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
      '"testId","testName","agents","enabled"\r\n"1","Web, ""main""","[{""agentId"":""a""}]",""\r\n"2","\'=HYPERLINK(""x"")","","false"\r\n',
    );
    expect(toCsv({ status: 'ok' })).toBeNull();
    expect(toCsv(['a', 'b'])).toBe('"value"\r\n"a"\r\n"b"\r\n');
  });

  it('quotes every cell, so a semicolon locale never splits a cell into a formula', () => {
    const csv = toCsv([{ name: 'x;=HYPERLINK("https://evil.example")', plain: 'ok' }]) ?? '';
    expect(csv).toBe('"name","plain"\r\n"x;=HYPERLINK(""https://evil.example"")","ok"\r\n');
  });
});
