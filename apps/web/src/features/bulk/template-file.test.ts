import { describe, expect, it } from 'vitest';
import { newTestTemplate } from '@ce/contract';
import { parseTemplatesFile, readTemplatesFile, templatesFileText } from './template-file';

describe('templates file', () => {
  it('reads back what it exported', () => {
    const templates = [
      { ...newTestTemplate(), testName: 'Shop', url: 'https://shop.example.com', agentNames: ['Tokyo, Japan'] },
      { ...newTestTemplate(), testName: 'DNS', testType: 'dns-trace' as const, domain: 'example.com' },
    ];
    expect(parseTemplatesFile(templatesFileText(templates))).toEqual({ ok: true, templates });
  });

  it('refuses what is not a templates file, saying why', async () => {
    expect(parseTemplatesFile('name,type\nShop,http')).toEqual({
      ok: false,
      error: 'This file is not a templates file: it is not JSON',
    });
    expect(parseTemplatesFile('{"tests": []}')).toMatchObject({ ok: false, error: /not a CE Toolkit templates file/ });
    expect(parseTemplatesFile('{"format":"ce-toolkit/bulk-test-templates","version":1,"templates":[]}')).toMatchObject({
      ok: false,
      error: /At least one test template is required/,
    });
    expect(await readTemplatesFile(new Blob([new Uint8Array(1024 * 1024 + 1)]))).toEqual({
      ok: false,
      error: 'The file is larger than 1 MB',
    });
  });
});
