import type { CaptureSummary } from '@ce/contract';
import type { CapturedPacket } from './capture-reader.js';
import { dnsMessage, ipv4, ipv6, serverName, type DnsMessage } from './payloads.js';

type Protocols = CaptureSummary['protocols'];

/** What decoding a packet reports, layer by layer; the capture's statistics add it up. */
export interface PacketSink {
  count(protocol: keyof Protocols): void;
  /** A packet between two endpoints (address, or address:port) of a protocol. */
  converse(protocol: string, one: string, two: string, bytes: number): void;
  /** A TCP segment with data, by flow and sequence number (retransmissions repeat one). */
  segment(flow: string, seq: number): void;
  /** A TCP reset. */
  reset(): void;
  /** The server name of a TLS ClientHello. */
  serverName(name: string): void;
  /** A DNS message read from a UDP payload. */
  dns(timeUs: number, message: DnsMessage): void;
}

/**
 * Decodes one packet: its link layer (Ethernet with VLAN tags, BSD loopback, raw IP, Linux cooked v1 and
 * v2), IPv4 or IPv6 (extension headers skipped), then ICMP, TCP (TLS server names) or UDP (DNS). A packet
 * shorter than its headers say throws a RangeError: the caller counts it, undecoded.
 */
export function decodePacket(packet: CapturedPacket, sink: PacketSink): void {
  const data = packet.data;
  switch (packet.linkType) {
    case 1: {
      sink.count('ethernet');
      let type = data.readUInt16BE(12);
      let at = 14;
      while (type === 0x8100 || type === 0x88a8 || type === 0x9100) {
        sink.count('vlan');
        type = data.readUInt16BE(at + 2);
        at += 4;
      }
      return decodeEtherType(type, data, at, packet, sink);
    }
    case 0: {
      const family = data.readUInt32LE(0) > 0xffff ? data.readUInt32BE(0) : data.readUInt32LE(0);
      return decodeEtherType(family === 2 ? 0x0800 : [24, 28, 30].includes(family) ? 0x86dd : 0, data, 4, packet, sink);
    }
    case 12:
    case 101:
    case 228:
    case 229: {
      const version = (data[0] ?? 0) >> 4;
      return decodeEtherType(version === 4 ? 0x0800 : version === 6 ? 0x86dd : 0, data, 0, packet, sink);
    }
    case 113:
      return decodeEtherType(data.readUInt16BE(14), data, 16, packet, sink);
    case 276:
      return decodeEtherType(data.readUInt16BE(0), data, 20, packet, sink);
    default:
      sink.count('other');
  }
}

function decodeEtherType(type: number, data: Buffer, at: number, packet: CapturedPacket, sink: PacketSink): void {
  if (type === 0x0806) {
    sink.count('arp');
    return;
  }
  if (type === 0x0800) {
    sink.count('ipv4');
    const headerLength = ((data[at] ?? 0) & 0x0f) * 4;
    if (headerLength < 20) throw new RangeError('short IPv4 header');
    const fragmentOffset = data.readUInt16BE(at + 6) & 0x1fff;
    const protocol = data[at + 9] ?? 0;
    const source = ipv4(data, at + 12);
    const target = ipv4(data, at + 16);
    const end = Math.min(data.length, at + data.readUInt16BE(at + 2));
    if (fragmentOffset !== 0) return sink.count(protocol === 6 ? 'tcp' : protocol === 17 ? 'udp' : 'other');
    return decodeTransport(protocol, data, at + headerLength, end, source, target, packet, sink);
  }
  if (type === 0x86dd) {
    sink.count('ipv6');
    let next = data[at + 6] ?? 0;
    const source = ipv6(data, at + 8);
    const target = ipv6(data, at + 24);
    const end = Math.min(data.length, at + 40 + data.readUInt16BE(at + 4));
    let offset = at + 40;
    // Hop-by-hop, routing, fragment and destination options headers come before the transport.
    for (let hops = 0; [0, 43, 44, 60].includes(next) && hops < 8; hops++) {
      const following = data[offset] ?? 59;
      offset += next === 44 ? 8 : ((data[offset + 1] ?? 0) + 1) * 8;
      next = following;
    }
    return decodeTransport(next, data, offset, end, source, target, packet, sink);
  }
  sink.count('other');
}

function decodeTransport(
  protocol: number,
  data: Buffer,
  at: number,
  end: number,
  source: string,
  target: string,
  packet: CapturedPacket,
  sink: PacketSink,
): void {
  if (protocol === 1 || protocol === 58) {
    sink.count('icmp');
    sink.converse(protocol === 1 ? 'ICMP' : 'ICMPv6', source, target, packet.originalLength);
    return;
  }
  if (protocol === 6) {
    sink.count('tcp');
    const sourcePort = data.readUInt16BE(at);
    const targetPort = data.readUInt16BE(at + 2);
    const seq = data.readUInt32BE(at + 4);
    const headerLength = ((data[at + 12] ?? 0) >> 4) * 4;
    const flags = data[at + 13] ?? 0;
    if (headerLength < 20) throw new RangeError('short TCP header');
    const payload = data.subarray(at + headerLength, Math.max(at + headerLength, end));
    if (flags & 0x04) sink.reset();
    sink.converse('TCP', `${source}:${sourcePort}`, `${target}:${targetPort}`, packet.originalLength);
    if (payload.length > 0) sink.segment(`${source}:${sourcePort}>${target}:${targetPort}`, seq);
    if (sourcePort === 443 || targetPort === 443) sink.count('tlsByPort');
    if (payload.length >= 6 && payload[0] === 0x16 && payload[1] === 0x03) {
      sink.count('tlsByParse');
      const name = serverName(payload);
      if (name) sink.serverName(name);
    }
    return;
  }
  if (protocol === 17) {
    sink.count('udp');
    const sourcePort = data.readUInt16BE(at);
    const targetPort = data.readUInt16BE(at + 2);
    sink.converse('UDP', `${source}:${sourcePort}`, `${target}:${targetPort}`, packet.originalLength);
    if (sourcePort === 53 || targetPort === 53 || sourcePort === 5353 || targetPort === 5353) {
      sink.count('dns');
      const message = data.subarray(at + 8, end);
      const parsed = dnsMessage(message);
      if (parsed) sink.dns(packet.timeUs, parsed);
    }
    return;
  }
  sink.count('other');
}
