import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekStarts } from '@ce/contract';
import { createTestApp, multipartBody, signedInClient, type TestApp, type TestClient } from './build-test-app.js';
import { knownFrames, pcapFile } from './support/capture-builder.js';

/** Bytes each route would start reading as its kind of file, so a cut is met in the middle of the file. */
const capture = () => {
  const frames = knownFrames();
  return pcapFile(Array.from({ length: 40 }, () => frames).flat());
};

/** Every route that takes an upload, with a form it would otherwise accept. */
const UPLOADS: { url: string; fields: Record<string, string>; file: string; bytes?: () => Buffer }[] = [
  { url: '/api/tracker/parse', fields: { selectedDate: weekStarts().at(-1) ?? '' }, file: 'file' },
  { url: '/api/pcap', fields: {}, file: 'file', bytes: capture },
  {
    url: '/api/community-dashboards',
    fields: { token: 'x', organizationId: '1', aid: '1', dashboardId: 'd', description: 'A description' },
    file: 'screenshot1',
  },
];

describe('malformed upload requests', () => {
  let testApp: TestApp;
  let tam: TestClient;

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    tam = await signedInClient(testApp.app, 'superuser@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const errorOf = (body: string) => JSON.parse(body) as { error: { code: string; message: string } };

  it.each(UPLOADS)('$url answers 400 with a message for a multipart request without a boundary', async (route) => {
    const { payload } = await multipartBody(route.fields, {
      [route.file]: { bytes: Buffer.from('hello'), name: 'x.bin' },
    });
    const response = await tam.request({
      method: 'POST',
      url: route.url,
      payload,
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body).error.message).toMatch(/multipart|form/i);
  });

  it.each(UPLOADS)('$url answers 400 with a message for a body cut before its end', async (route) => {
    const { payload, headers } = await multipartBody(route.fields, {
      [route.file]: { bytes: route.bytes?.() ?? Buffer.alloc(64 * 1024, 7), name: 'x.bin' },
    });
    const response = await tam.request({
      method: 'POST',
      url: route.url,
      payload: payload.subarray(0, payload.length - 2_000),
      headers,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body).error.message).toBe(
      'The upload was cut short or is not a well-formed multipart form: send the file again.',
    );
  });

  it.each(UPLOADS)('$url answers 400 for a boundary that never appears in the body', async (route) => {
    const response = await tam.request({
      method: 'POST',
      url: route.url,
      payload: Buffer.from('no parts here at all'),
      headers: { 'content-type': 'multipart/form-data; boundary=----nothing' },
    });
    expect(response.statusCode, response.body).toBe(400);
  });
});
