import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURE_LIMITS, type CaptureEntry, type CaptureList } from '@ce/contract';
import {
  createTestApp,
  ANSWER_SUITE_DATABASES,
  multipartBody,
  signedInClient,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { clientHello, dns, knownFrames, packet, pcapFile, pcapngFile, tcp, udp } from './support/capture-builder.js';

/** A capture of one TLS ClientHello for each server name. */
const helloCapture = (names: string[]) =>
  pcapFile(
    names.map((name, index) => ({
      timeUs: 1_700_000_000_000_000 + index * 1000,
      bytes: packet.tcp4('10.0.0.1', '10.0.0.2', tcp(40000 + (index % 20000), 443, index, 0x18, clientHello(name))),
    })),
  );

async function upload(client: TestClient, bytes: Buffer, name = 'capture.pcap') {
  return client.request({ method: 'POST', url: '/api/pcap', ...(await multipartBody({}, { file: { bytes, name } })) });
}

describe.each(ANSWER_SUITE_DATABASES)('packet captures (%s)', (kind) => {
  let testApp: TestApp;
  let support: TestClient;

  beforeAll(async () => {
    testApp = await createTestApp(kind, { PCAP_MAX_MB: '3' });
    support = await signedInClient(testApp.app, 'support@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('summarises a pcapng, keeps it in the history, gives the file back and shares it in Webex', async () => {
    const file = pcapngFile(knownFrames());
    const response = await upload(support, file, 'case-123.pcapng');
    expect(response.statusCode, response.body).toBe(201);
    const entry = response.json<CaptureEntry>();
    expect(entry.summary).toMatchObject({ format: 'pcapng', packets: 10, tcpResets: 1, tcpRetransmissions: 1 });
    expect((await support.request({ method: 'GET', url: '/api/pcap' })).json().captures[0].id).toBe(entry.id);
    const back = await support.request({ method: 'GET', url: `/api/pcap/${entry.id}/file` });
    expect(Buffer.compare(back.rawPayload, file)).toBe(0);

    const shared = await support.request({
      method: 'POST',
      url: `/api/pcap/${entry.id}/share`,
      payload: { email: 'tam@demo.local', caseNumber: 'SR-123456' },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json<CaptureEntry>().sharedWith).toEqual([
      expect.objectContaining({ email: 'tam@demo.local', caseNumber: 'SR-123456' }),
    ]);
    const message = testApp.sandbox?.webex.messages.at(-1);
    expect(message?.toPersonEmail).toBe('tam@demo.local');
    expect(message?.markdown).toContain('**Packet capture for case SR\\-123456**: case\\-123\\.pcapng');
    expect(Buffer.compare(message?.file?.content ?? Buffer.alloc(0), file)).toBe(0);

    const other = await signedInClient(testApp.app, 't3@demo.local');
    expect((await other.request({ method: 'GET', url: `/api/pcap/${entry.id}/file` })).statusCode).toBe(404);
    const tam = await signedInClient(testApp.app, 'user@demo.local');
    expect((await tam.request({ method: 'GET', url: '/api/pcap' })).statusCode).toBe(403);
  });

  it('escapes what a capture names in its Webex message: a server name cannot become a link', async () => {
    const response = await upload(support, helloCapture(['[Reset-your-password](https://evil.example)']));
    const id = response.json<CaptureEntry>().id;
    await support.request({
      method: 'POST',
      url: `/api/pcap/${id}/share`,
      payload: { email: 'tam@demo.local', caseNumber: '*SR-1* <b>' },
    });
    const message = testApp.sandbox?.webex.messages.at(-1)?.markdown ?? '';
    expect(message).toContain('TLS server names: \\[Reset\\-your\\-password\\]\\(https://evil\\.example\\)');
    expect(message).not.toContain('[Reset-your-password](');
    expect(message).toContain('**Packet capture for case \\*SR\\-1\\* &lt;b&gt;**');
  });

  it('pages the history, newest first, without the summaries', async () => {
    const other = await signedInClient(testApp.app, 't3@demo.local');
    const ids: string[] = [];
    for (let index = 0; index < 3; index++)
      ids.push((await upload(other, pcapngFile(knownFrames()), `page-${index}.pcapng`)).json<CaptureEntry>().id);
    const first = (await other.request({ method: 'GET', url: '/api/pcap?pageSize=2' })).json<CaptureList>();
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.captures.map((capture) => capture.id)).toEqual([ids[2], ids[1]]);
    expect(first.captures[0]).not.toHaveProperty('summary');
    expect(first.captures[0]).toMatchObject({ filename: 'page-2.pcapng', packets: 10 });
    const second = (await other.request({ method: 'GET', url: '/api/pcap?pageSize=2&page=2' })).json<CaptureList>();
    expect(second.captures.map((capture) => capture.id)).toEqual([ids[0]]);
    expect((await other.request({ method: 'GET', url: '/api/pcap?pageSize=500' })).statusCode).toBe(400);
    const opened = await other.request({ method: 'GET', url: `/api/pcap/${ids[0]}` });
    expect(opened.json<CaptureEntry>().summary.packets).toBe(10);
  });

  it('reads a capture of a few megabytes as it streams, and refuses one over the limit', async () => {
    const frames = Array.from({ length: 2_000 }, (_, index) => ({
      timeUs: 1_700_000_000_000_000 + index * 1000,
      bytes: packet.tcp4('10.0.0.1', '10.0.0.2', tcp(40000, 8080, index * 1400, 0x10, Buffer.alloc(1400, index % 256))),
    }));
    const big = pcapFile(frames);
    const response = await upload(support, big);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<CaptureEntry>().summary).toMatchObject({ packets: 2_000, tcpRetransmissions: 0 });
    const tooBig = await upload(support, Buffer.concat([big, big]));
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().error.message).toBe('The capture is larger than 3 MB.');
  });
});

describe('malformed captures', () => {
  let testApp: TestApp;
  let support: TestClient;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { PCAP_MAX_MB: '2' });
    support = await signedInClient(testApp.app, 'support@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers each of 200+ malformed files with a clear 4xx or a partial summary, never crashing or stalling', async () => {
    const frames = knownFrames();
    const classic = pcapFile(frames);
    const next = pcapngFile(frames);
    const files: { label: string; bytes: Buffer; grows?: boolean }[] = [];
    for (let cut = 0; cut < 24; cut++)
      files.push({ label: `pcap header cut at ${cut}`, bytes: classic.subarray(0, cut) });
    for (let cut = 25; cut < classic.length; cut += 9)
      files.push({ label: `pcap cut at ${cut}`, bytes: classic.subarray(0, cut) });
    for (let cut = 0; cut < next.length; cut += 11)
      files.push({ label: `pcapng cut at ${cut}`, bytes: next.subarray(0, cut) });
    for (const length of [0, 1, 0x7fffffff, 0xffffffff]) {
      const bytes = Buffer.from(classic);
      bytes.writeUInt32LE(length, 16);
      files.push({ label: `snap length ${length}`, bytes });
    }
    for (const length of [65536, 262145, 0x7fffffff, 0xffffffff, 100_000]) {
      const bytes = Buffer.from(classic);
      bytes.writeUInt32LE(length, 24 + 8);
      files.push({ label: `record length ${length}`, bytes });
    }
    for (const length of [0, 4, 13, 0x7ffffff0, 0xfffffffc]) {
      const bytes = Buffer.from(next);
      bytes.writeUInt32LE(length, 4);
      files.push({ label: `pcapng block length ${length}`, bytes });
    }
    for (let index = 0; index < 40; index++) {
      const bytes = Buffer.from(index % 2 ? next : classic);
      const at = 24 + ((index * 7919) % (bytes.length - 24));
      bytes[at] = (bytes[at] ?? 0) ^ 0xff;
      bytes[at + 1] = (bytes[at + 1] ?? 0) ^ 0x5a;
      files.push({ label: `flipped bytes ${index}`, bytes });
    }
    for (const magic of ['%PDF', 'PK\x03\x04', 'GET ', '\x00\x00\x00\x00', 'ABCD'])
      files.push({
        label: `wrong magic ${JSON.stringify(magic)}`,
        bytes: Buffer.concat([Buffer.from(magic, 'latin1'), classic.subarray(4)]),
      });
    for (let index = 0; index < 30; index++) {
      const noise = Buffer.alloc(50 + index * 37);
      for (let at = 0; at < noise.length; at++) noise[at] = (at * 131 + index * 7) % 256;
      files.push({ label: `noise ${index}`, bytes: noise });
    }
    files.push({ label: 'a huge file', bytes: Buffer.concat([classic, Buffer.alloc(2 * 1024 * 1024, 0)]) });
    files.push({
      label: 'version 9.9',
      bytes: Buffer.concat([classic.subarray(0, 4), Buffer.from([9, 0, 9, 0]), classic.subarray(8)]),
    });
    // Captures built to grow the summary: unique long server names, DNS messages with long names and many answers.
    files.push({
      label: '400 unique 4 KB TLS server names',
      bytes: helloCapture(Array.from({ length: 400 }, (_, index) => `${index}-${'n'.repeat(4090)}`)),
      grows: true,
    });
    files.push({
      label: '600 DNS answers with 250-character names',
      bytes: pcapFile(
        Array.from({ length: 600 }, (_, index) => ({
          timeUs: 1_700_000_000_000_000 + index * 1000,
          bytes: packet.udp4(
            '10.0.0.53',
            '10.0.0.5',
            udp(
              53,
              40000 + index,
              dns(index, `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${index}.example`, '192.0.2.1'),
            ),
          ),
        })),
      ),
      grows: true,
    });
    expect(files.length).toBeGreaterThanOrEqual(200);

    const startRss = process.memoryUsage().rss;
    for (const file of files) {
      const response = await upload(support, file.bytes);
      if (response.statusCode === 201 && file.grows) {
        // Bounded whatever the capture holds, and the cut said.
        expect(response.rawPayload.length, file.label).toBeLessThan(256 * 1024);
        expect(response.json<CaptureEntry>().summary.cut.length, file.label).toBeGreaterThan(0);
      } else if (response.statusCode === 201) {
        const summary = response.json<CaptureEntry>().summary;
        // What was read before the file stopped making sense (a cut at a record's boundary reads as whole).
        expect(summary.packets, file.label).toBeLessThanOrEqual(10);
        if (summary.problem) expect(summary.problem.message, file.label).toMatch(/byte \d+/);
      } else {
        expect(response.statusCode, `${file.label}: ${response.body}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, file.label).toBeLessThan(500);
        expect(response.json().error.message.length, file.label).toBeGreaterThan(10);
      }
      expect((await testApp.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
    expect(process.memoryUsage().rss - startRss).toBeLessThan(300 * 1024 * 1024);
  }, 120_000);
});

describe('a capture built to grow its summary', () => {
  let testApp: TestApp;
  let support: TestClient;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { PCAP_MAX_MB: '16' });
    support = await signedInClient(testApp.app, 'support@demo.local');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('bounds every list of a summary and says what it cut: 2,000 unique 4 KB server names', async () => {
    const names = Array.from({ length: 2_000 }, (_, index) => `${String(index).padStart(4, '0')}-${'x'.repeat(4091)}`);
    const response = await upload(support, helloCapture(names));
    expect(response.statusCode, response.body.slice(0, 200)).toBe(201);
    expect(response.rawPayload.length).toBeLessThan(256 * 1024);
    const { summary } = response.json<CaptureEntry>();
    expect(summary.tlsServerNames).toHaveLength(CAPTURE_LIMITS.tlsServerNames);
    expect(summary.tlsServerNames.every((item) => item.name.length <= CAPTURE_LIMITS.textLength)).toBe(true);
    expect(summary.cut).toContainEqual({ list: 'tlsServerNames', shown: CAPTURE_LIMITS.tlsServerNames, total: 2_000 });
    expect(summary.cut).toContainEqual({ list: 'conversations', shown: CAPTURE_LIMITS.conversations, total: 2_000 });
    // Read back, listed and shared, it stays as small.
    const id = response.json<CaptureEntry>().id;
    expect((await support.request({ method: 'GET', url: `/api/pcap/${id}` })).rawPayload.length).toBeLessThan(
      256 * 1024,
    );
    expect((await support.request({ method: 'GET', url: '/api/pcap' })).rawPayload.length).toBeLessThan(16 * 1024);
    const shared = await support.request({
      method: 'POST',
      url: `/api/pcap/${id}/share`,
      payload: { email: 'tam@demo.local', caseNumber: 'SR-2000' },
    });
    expect(shared.statusCode, shared.body.slice(0, 200)).toBe(200);
    const message = testApp.sandbox?.webex.messages.at(-1)?.markdown ?? '';
    expect(Buffer.byteLength(message)).toBeLessThan(7439);
    expect(message).toContain('and 1990 more');
  });
});
