/**
 * Builds packet captures with known packets for the tests: Ethernet frames (optionally VLAN-tagged) carrying
 * IPv4 or IPv6 with TCP, UDP or ICMP, DNS messages and a TLS ClientHello, written as pcap or pcapng.
 */

export interface Frame {
  timeUs: number;
  bytes: Buffer;
}

const mac = Buffer.from([0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2]);

function checksumless16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}

function ipv4(source: string, target: string, protocol: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header[0] = 0x45;
  header.writeUInt16BE(20 + payload.length, 2);
  header[8] = 64;
  header[9] = protocol;
  Buffer.from(source.split('.').map(Number)).copy(header, 12);
  Buffer.from(target.split('.').map(Number)).copy(header, 16);
  return Buffer.concat([header, payload]);
}

function ipv6(source: number, target: number, next: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(40);
  header[0] = 0x60;
  header.writeUInt16BE(payload.length, 4);
  header[6] = next;
  header[7] = 64;
  header.writeUInt16BE(0x2001, 8);
  header.writeUInt16BE(0x0db8, 10);
  header.writeUInt16BE(source, 22);
  header.writeUInt16BE(0x2001, 24);
  header.writeUInt16BE(0x0db8, 26);
  header.writeUInt16BE(target, 38);
  return Buffer.concat([header, payload]);
}

export function tcp(
  sourcePort: number,
  targetPort: number,
  seq: number,
  flags: number,
  payload: Buffer = Buffer.alloc(0),
): Buffer {
  const header = Buffer.alloc(20);
  header.writeUInt16BE(sourcePort, 0);
  header.writeUInt16BE(targetPort, 2);
  header.writeUInt32BE(seq, 4);
  header[12] = 5 << 4;
  header[13] = flags;
  header.writeUInt16BE(65535, 14);
  return Buffer.concat([header, payload]);
}

export function udp(sourcePort: number, targetPort: number, payload: Buffer): Buffer {
  return Buffer.concat([
    checksumless16(sourcePort),
    checksumless16(targetPort),
    checksumless16(8 + payload.length),
    checksumless16(0),
    payload,
  ]);
}

function name(text: string): Buffer {
  return Buffer.concat([
    ...text.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])),
    Buffer.from([0]),
  ]);
}

/** A DNS query for `host` (A), or its response with one A answer (compressed owner name). */
export function dns(id: number, host: string, answer?: string): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(answer ? 0x8180 : 0x0100, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answer ? 1 : 0, 6);
  const question = Buffer.concat([name(host), checksumless16(1), checksumless16(1)]);
  if (!answer) return Buffer.concat([header, question]);
  const record = Buffer.concat([
    Buffer.from([0xc0, 12]),
    checksumless16(1),
    checksumless16(1),
    Buffer.from([0, 0, 0, 60]),
    checksumless16(4),
    Buffer.from(answer.split('.').map(Number)),
  ]);
  return Buffer.concat([header, question, record]);
}

/** A TLS record holding a ClientHello whose server_name extension names `host`. */
export function clientHello(host: string): Buffer {
  const sni = Buffer.from(host);
  const serverNameList = Buffer.concat([Buffer.from([0]), checksumless16(sni.length), sni]);
  const extension = Buffer.concat([
    checksumless16(0),
    checksumless16(serverNameList.length + 2),
    checksumless16(serverNameList.length),
    serverNameList,
  ]);
  const body = Buffer.concat([
    Buffer.from([3, 3]),
    Buffer.alloc(32, 7),
    Buffer.from([0]),
    checksumless16(2),
    Buffer.from([0x13, 0x01]),
    Buffer.from([1, 0]),
    checksumless16(extension.length),
    extension,
  ]);
  const handshake = Buffer.concat([Buffer.from([1, 0, (body.length >> 8) & 0xff, body.length & 0xff]), body]);
  return Buffer.concat([Buffer.from([0x16, 3, 1]), checksumless16(handshake.length), handshake]);
}

export function ethernet(ip: Buffer, { version = 4, vlan }: { version?: 4 | 6; vlan?: number } = {}): Buffer {
  const type = checksumless16(version === 4 ? 0x0800 : 0x86dd);
  const tag = vlan === undefined ? Buffer.alloc(0) : Buffer.concat([checksumless16(0x8100), checksumless16(vlan)]);
  return Buffer.concat([mac, tag, type, ip]);
}

export const packet = {
  tcp4: (source: string, target: string, segment: Buffer, vlan?: number) =>
    ethernet(ipv4(source, target, 6, segment), { vlan }),
  udp4: (source: string, target: string, datagram: Buffer) => ethernet(ipv4(source, target, 17, datagram)),
  icmp4: (source: string, target: string) => ethernet(ipv4(source, target, 1, Buffer.from([8, 0, 0, 0, 0, 1, 0, 1]))),
  udp6: (source: number, target: number, datagram: Buffer) =>
    ethernet(ipv6(source, target, 17, datagram), { version: 6 }),
};

/** Classic pcap, little-endian, microseconds (or nanoseconds), Ethernet. */
export function pcapFile(frames: Frame[], { nanoseconds = false, bigEndian = false, snapLength = 65535 } = {}): Buffer {
  const write32 = (buffer: Buffer, value: number, at: number) =>
    bigEndian ? buffer.writeUInt32BE(value, at) : buffer.writeUInt32LE(value, at);
  const header = Buffer.alloc(24);
  write32(header, nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4, 0);
  if (bigEndian) {
    header.writeUInt16BE(2, 4);
    header.writeUInt16BE(4, 6);
  } else {
    header.writeUInt16LE(2, 4);
    header.writeUInt16LE(4, 6);
  }
  write32(header, snapLength, 16);
  write32(header, 1, 20);
  const records = frames.map((frame) => {
    const record = Buffer.alloc(16);
    write32(record, Math.floor(frame.timeUs / 1_000_000), 0);
    write32(record, nanoseconds ? (frame.timeUs % 1_000_000) * 1000 : frame.timeUs % 1_000_000, 4);
    write32(record, frame.bytes.length, 8);
    write32(record, frame.bytes.length, 12);
    return Buffer.concat([record, frame.bytes]);
  });
  return Buffer.concat([header, ...records]);
}

const pad4 = (buffer: Buffer) => Buffer.concat([buffer, Buffer.alloc((4 - (buffer.length % 4)) % 4)]);

function block(type: number, body: Buffer): Buffer {
  const padded = pad4(body);
  const length = 12 + padded.length;
  const head = Buffer.alloc(8);
  head.writeUInt32LE(type, 0);
  head.writeUInt32LE(length, 4);
  const tail = Buffer.alloc(4);
  tail.writeUInt32LE(length, 0);
  return Buffer.concat([head, padded, tail]);
}

/** pcapng, little-endian: a section header, one Ethernet interface (microseconds), enhanced packet blocks. */
export function pcapngFile(frames: Frame[]): Buffer {
  const section = Buffer.alloc(16);
  section.writeUInt32LE(0x1a2b3c4d, 0);
  section.writeUInt16LE(1, 4);
  section.writeUInt16LE(0, 6);
  section.writeBigInt64LE(-1n, 8);
  const sectionBlock = block(0x0a0d0d0a, section);
  const face = Buffer.alloc(8);
  face.writeUInt16LE(1, 0);
  face.writeUInt32LE(262144, 4);
  const blocks = frames.map((frame) => {
    const body = Buffer.alloc(20);
    body.writeUInt32LE(0, 0);
    body.writeUInt32LE(Math.floor(frame.timeUs / 2 ** 32), 4);
    body.writeUInt32LE(frame.timeUs % 2 ** 32, 8);
    body.writeUInt32LE(frame.bytes.length, 12);
    body.writeUInt32LE(frame.bytes.length, 16);
    return block(6, Buffer.concat([body, frame.bytes]));
  });
  return Buffer.concat([sectionBlock, block(1, face), ...blocks]);
}

/** The capture the tests know by heart: 10 packets over 2 seconds. */
export function knownFrames(start = Date.UTC(2026, 10, 23, 9, 0, 0) * 1000): Frame[] {
  const client = '10.0.0.5';
  const server = '192.0.2.10';
  const resolver = '10.0.0.53';
  const at = (ms: number) => start + ms * 1000;
  return [
    { timeUs: at(0), bytes: packet.udp4(client, resolver, udp(40000, 53, dns(0x1234, 'api.thousandeyes.com'))) },
    {
      timeUs: at(20),
      bytes: packet.udp4(resolver, client, udp(53, 40000, dns(0x1234, 'api.thousandeyes.com', '192.0.2.10'))),
    },
    { timeUs: at(100), bytes: packet.tcp4(client, server, tcp(50000, 443, 1000, 0x02)) },
    { timeUs: at(130), bytes: packet.tcp4(server, client, tcp(443, 50000, 9000, 0x12)) },
    {
      timeUs: at(160),
      bytes: packet.tcp4(client, server, tcp(50000, 443, 1001, 0x18, clientHello('api.thousandeyes.com'))),
    },
    // The same segment again: a retransmission.
    {
      timeUs: at(1160),
      bytes: packet.tcp4(client, server, tcp(50000, 443, 1001, 0x18, clientHello('api.thousandeyes.com'))),
    },
    { timeUs: at(1500), bytes: packet.tcp4(server, client, tcp(443, 50000, 9001, 0x04)) },
    { timeUs: at(1600), bytes: packet.icmp4(client, server) },
    { timeUs: at(1700), bytes: packet.tcp4(client, '198.51.100.7', tcp(50001, 80, 5, 0x02), 42) },
    { timeUs: at(2000), bytes: packet.udp6(1, 2, udp(5000, 5001, Buffer.from('hello'))) },
  ];
}
