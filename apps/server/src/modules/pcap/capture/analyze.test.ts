import { describe, expect, it } from 'vitest';
import { knownFrames, pcapFile, pcapngFile } from '../../../../test/support/capture-builder.js';
import { analyzeCapture } from './analyze.js';

async function* chunks(bytes: Buffer, size = 7) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe('a capture summarised as it streams', () => {
  const frames = knownFrames();
  const bytes = frames.reduce((sum, frame) => sum + frame.bytes.length, 0);

  it.each([
    ['pcap', pcapFile(frames)],
    ['pcap-ns', pcapFile(frames, { nanoseconds: true })],
    ['pcap', pcapFile(frames, { bigEndian: true })],
    ['pcapng', pcapngFile(frames)],
  ] as const)('reads %s with the known packets', async (format, file) => {
    const { summary } = await analyzeCapture(chunks(file));
    expect(summary).toMatchObject({
      format,
      linkTypeName: 'Ethernet',
      packets: 10,
      bytes,
      fileBytes: file.length,
      firstPacket: '2026-11-23T09:00:00.000Z',
      lastPacket: '2026-11-23T09:00:02.000Z',
      durationSeconds: 2,
      averagePacketsPerSecond: 5,
      tcpResets: 1,
      tcpRetransmissions: 1,
      problem: null,
    });
    expect(summary?.protocols).toEqual({
      ethernet: 10,
      vlan: 1,
      arp: 0,
      ipv4: 9,
      ipv6: 1,
      tcp: 6,
      udp: 3,
      icmp: 1,
      dns: 2,
      tlsByPort: 5,
      tlsByParse: 2,
      other: 0,
    });
    expect(summary?.tlsServerNames).toEqual([{ name: 'api.thousandeyes.com', count: 2 }]);
    expect(summary?.dns.map((entry) => [entry.question, entry.type, entry.response, entry.answers])).toEqual([
      ['api.thousandeyes.com', 'A', false, []],
      ['api.thousandeyes.com', 'A', true, ['A 192.0.2.10']],
    ]);
    expect(summary?.conversations[0]).toMatchObject({
      protocol: 'TCP',
      a: '10.0.0.5:50000',
      b: '192.0.2.10:443',
      packets: 5,
    });
    expect(summary?.timeline.points.map((point) => point.packets)).toEqual([5, 4, 1]);
  });

  it('stops where a record makes no sense, says where, and keeps what came before', async () => {
    const file = pcapFile(frames);
    const damaged = Buffer.from(file);
    // The fourth record's captured length: absurd.
    let at = 24;
    for (let index = 0; index < 3; index++) at += 16 + damaged.readUInt32LE(at + 8);
    damaged.writeUInt32LE(0x7fffffff, at + 8);
    const { summary } = await analyzeCapture(chunks(damaged, 64));
    expect(summary?.packets).toBe(3);
    expect(summary?.problem).toEqual({
      offset: at + 8,
      message: `The packet record at byte ${at} claims 2147483647 captured bytes, more than the snapshot length 65535: the file is damaged here.`,
    });
    const cut = await analyzeCapture(chunks(file.subarray(0, file.length - 5)));
    expect(cut.summary?.packets).toBe(9);
    expect(cut.summary?.problem?.message).toMatch(/^The file ends in the middle of a packet record at byte \d+/);
  });

  it('refuses what is not a capture', async () => {
    expect((await analyzeCapture(chunks(Buffer.from('GET / HTTP/1.1\r\n')))).refused).toBe(
      'This is not a packet capture: the file starts with 0x47455420, not a pcap or pcapng signature.',
    );
    expect((await analyzeCapture(chunks(Buffer.alloc(0)))).refused).toBe('The file is empty.');
  });
});
