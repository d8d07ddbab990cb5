import { describe, expect, it } from 'vitest';
import { SalesforceClient, SalesforceError, soqlString } from './salesforce-client.js';

/** A Salesforce that pages its query answers and expires the first session once. */
function fakeSalesforce() {
  const calls: string[] = [];
  let tokens = 0;
  const fetch = (async (input: string | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push(`${init?.method ?? 'GET'} ${url.replace('https://org.example', '')}`);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.endsWith('/services/oauth2/token')) {
      tokens += 1;
      return json(200, { access_token: `token-${tokens}`, instance_url: 'https://org.example' });
    }
    const authorization = new Headers(init?.headers).get('authorization');
    if (authorization === 'Bearer token-1')
      return json(401, [{ message: 'Session expired', errorCode: 'INVALID_SESSION_ID' }]);
    if (url.includes('Nothing'))
      return json(400, [{ message: "sObject type 'Nothing' is not supported.", errorCode: 'INVALID_TYPE' }]);
    if (url.includes('/query?q='))
      return json(200, { done: false, nextRecordsUrl: '/services/data/v60.0/query/01g-2000', records: [{ Id: 'a' }] });
    if (url.endsWith('/query/01g-2000')) return json(200, { done: true, records: [{ Id: 'b' }] });
    if (url.endsWith('/composite/sobjects')) {
      const body = JSON.parse(String(init?.body)) as {
        allOrNone: boolean;
        records: { attributes: { type: string } }[];
      };
      expect(body.allOrNone).toBe(false);
      expect(body.records[0]?.attributes.type).toBe('Task');
      return json(200, [{ id: '00T1', success: true, errors: [] }]);
    }
    return json(400, [{ message: 'no such resource', errorCode: 'NOT_FOUND' }]);
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('the Salesforce client', () => {
  const config = { loginUrl: 'https://login.example', clientId: 'id', clientSecret: 'secret', apiVersion: 'v60.0' };

  it('renews an expired session once, follows query pages and creates through sObject Collections', async () => {
    const salesforce = fakeSalesforce();
    const client = new SalesforceClient({ ...config, fetch: salesforce.fetch });
    expect(await client.query("SELECT Id FROM Task WHERE Subject = 'x'")).toEqual([{ Id: 'a' }, { Id: 'b' }]);
    expect(salesforce.calls.filter((call) => call.includes('oauth2'))).toHaveLength(2);
    expect(await client.createMany('Task', [{ Subject: 'Call' }])).toEqual([{ id: '00T1', success: true, errors: [] }]);
    await expect(() =>
      client.createMany(
        'Task',
        Array.from({ length: 201 }, () => ({})),
      ),
    ).rejects.toThrow('at most 200');
  });

  it('says what Salesforce answered when it refuses', async () => {
    const client = new SalesforceClient({ ...config, fetch: fakeSalesforce().fetch });
    const error = await client.query('SELECT Id FROM Nothing').then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SalesforceError);
    expect((error as SalesforceError).message).toBe("INVALID_TYPE: sObject type 'Nothing' is not supported.");
  });

  it('escapes quotes and backslashes in SOQL strings', () => {
    expect(soqlString("O'Brien \\ co")).toBe("'O\\'Brien \\\\ co'");
  });
});
