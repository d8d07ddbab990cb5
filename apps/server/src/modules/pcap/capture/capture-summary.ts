import { CAPTURE_LIMITS, type CaptureSummary } from '@ce/contract';
import type { CapturedPacket, CaptureFormat, CaptureProblem } from './capture-reader.js';

/** Link types by number (tcpdump.org/linktypes.html), the ones decoded here and a few common others. */
export const LINK_TYPES: Record<number, string> = {
  0: 'BSD loopback',
  1: 'Ethernet',
  12: 'Raw IP',
  101: 'Raw IP',
  105: 'IEEE 802.11',
  113: 'Linux cooked capture',
  127: 'IEEE 802.11 radiotap',
  228: 'Raw IPv4',
  229: 'Raw IPv6',
  276: 'Linux cooked capture v2',
};

/** Timestamps after 2100 are damage, not time: such packets count, but not on the timeline. */
const LAST_TIME_US = Date.UTC(2100, 0, 1) * 1000;
const MAX_CONVERSATIONS = 50_000;
const MAX_FLOWS = 20_000;
const SEQS_PER_FLOW = 256;
const MAX_SECONDS = 200_000;
/** Distinct TLS server names counted; more are counted as names, not kept. */
const MAX_NAMES_TRACKED = 10_000;

/** A name or answer from a packet, at most CAPTURE_LIMITS.textLength characters. */
const clip = (text: string) =>
  text.length > CAPTURE_LIMITS.textLength ? `${text.slice(0, CAPTURE_LIMITS.textLength - 1)}…` : text;
const TIMELINE_POINTS = 600;

type Protocols = CaptureSummary['protocols'];

interface Conversation {
  protocol: string;
  a: string;
  b: string;
  packets: number;
  bytes: number;
}

const ipv4 = (data: Buffer, at: number) => `${data[at]}.${data[at + 1]}.${data[at + 2]}.${data[at + 3]}`;
function ipv6(data: Buffer, at: number): string {
  const groups = Array.from({ length: 8 }, (_, index) => data.readUInt16BE(at + index * 2).toString(16));
  // The longest run of zero groups becomes '::'.
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === '0') length++;
    if (length > best.length && length > 1) best = { start, length };
  }
  if (best.start < 0) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}

/** What the packets of a capture add up to, kept in bounded memory however long the capture is. */
export class CaptureStats {
  packets = 0;
  bytes = 0;
  private first: number | null = null;
  private last: number | null = null;
  private readonly protocols: Protocols = {
    ethernet: 0,
    vlan: 0,
    arp: 0,
    ipv4: 0,
    ipv6: 0,
    tcp: 0,
    udp: 0,
    icmp: 0,
    dns: 0,
    tlsByPort: 0,
    tlsByParse: 0,
    other: 0,
  };
  private readonly conversations = new Map<string, Conversation>();
  private conversationsDropped = 0;
  private readonly flows = new Map<string, { seqs: Set<number>; order: number[] }>();
  private resets = 0;
  private retransmissions = 0;
  private readonly dns: CaptureSummary['dns'] = [];
  private dnsMessages = 0;
  private readonly serverNames = new Map<string, number>();
  private serverNamesNotTracked = 0;
  private readonly seconds = new Map<number, { packets: number; bytes: number }>();
  private readonly linkTypes = new Map<number, number>();

  add(packet: CapturedPacket): void {
    this.packets += 1;
    this.bytes += packet.capturedLength;
    if (packet.timeUs > 0 && packet.timeUs < LAST_TIME_US) {
      this.first = this.first === null ? packet.timeUs : Math.min(this.first, packet.timeUs);
      this.last = this.last === null ? packet.timeUs : Math.max(this.last, packet.timeUs);
      const second = Math.floor(packet.timeUs / 1_000_000);
      const bucket = this.seconds.get(second);
      if (bucket) {
        bucket.packets += 1;
        bucket.bytes += packet.originalLength;
      } else if (this.seconds.size < MAX_SECONDS)
        this.seconds.set(second, { packets: 1, bytes: packet.originalLength });
    }
    this.linkTypes.set(packet.linkType, (this.linkTypes.get(packet.linkType) ?? 0) + 1);
    try {
      this.decodeLink(packet);
    } catch {
      // A packet shorter than its headers say is counted, not decoded.
      this.protocols.other += 1;
    }
  }

  private decodeLink(packet: CapturedPacket): void {
    const data = packet.data;
    switch (packet.linkType) {
      case 1: {
        this.protocols.ethernet += 1;
        let type = data.readUInt16BE(12);
        let at = 14;
        while (type === 0x8100 || type === 0x88a8 || type === 0x9100) {
          this.protocols.vlan += 1;
          type = data.readUInt16BE(at + 2);
          at += 4;
        }
        return this.decodeEtherType(type, data, at, packet);
      }
      case 0: {
        const family = data.readUInt32LE(0) > 0xffff ? data.readUInt32BE(0) : data.readUInt32LE(0);
        return this.decodeEtherType(
          family === 2 ? 0x0800 : [24, 28, 30].includes(family) ? 0x86dd : 0,
          data,
          4,
          packet,
        );
      }
      case 12:
      case 101:
      case 228:
      case 229: {
        const version = (data[0] ?? 0) >> 4;
        return this.decodeEtherType(version === 4 ? 0x0800 : version === 6 ? 0x86dd : 0, data, 0, packet);
      }
      case 113:
        return this.decodeEtherType(data.readUInt16BE(14), data, 16, packet);
      case 276:
        return this.decodeEtherType(data.readUInt16BE(0), data, 20, packet);
      default:
        this.protocols.other += 1;
    }
  }

  private decodeEtherType(type: number, data: Buffer, at: number, packet: CapturedPacket): void {
    if (type === 0x0806) {
      this.protocols.arp += 1;
      return;
    }
    if (type === 0x0800) {
      this.protocols.ipv4 += 1;
      const headerLength = ((data[at] ?? 0) & 0x0f) * 4;
      if (headerLength < 20) throw new RangeError('short IPv4 header');
      const fragmentOffset = data.readUInt16BE(at + 6) & 0x1fff;
      const protocol = data[at + 9] ?? 0;
      const source = ipv4(data, at + 12);
      const target = ipv4(data, at + 16);
      const end = Math.min(data.length, at + data.readUInt16BE(at + 2));
      if (fragmentOffset !== 0) return this.count(protocol === 6 ? 'tcp' : protocol === 17 ? 'udp' : 'other');
      return this.decodeTransport(protocol, data, at + headerLength, end, source, target, packet);
    }
    if (type === 0x86dd) {
      this.protocols.ipv6 += 1;
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
      return this.decodeTransport(next, data, offset, end, source, target, packet);
    }
    this.protocols.other += 1;
  }

  private count(key: keyof Protocols): void {
    this.protocols[key] += 1;
  }

  private decodeTransport(
    protocol: number,
    data: Buffer,
    at: number,
    end: number,
    source: string,
    target: string,
    packet: CapturedPacket,
  ): void {
    if (protocol === 1 || protocol === 58) {
      this.protocols.icmp += 1;
      this.converse(protocol === 1 ? 'ICMP' : 'ICMPv6', source, target, packet.originalLength);
      return;
    }
    if (protocol === 6) {
      this.protocols.tcp += 1;
      const sourcePort = data.readUInt16BE(at);
      const targetPort = data.readUInt16BE(at + 2);
      const seq = data.readUInt32BE(at + 4);
      const headerLength = ((data[at + 12] ?? 0) >> 4) * 4;
      const flags = data[at + 13] ?? 0;
      if (headerLength < 20) throw new RangeError('short TCP header');
      const payload = data.subarray(at + headerLength, Math.max(at + headerLength, end));
      if (flags & 0x04) this.resets += 1;
      this.converse('TCP', `${source}:${sourcePort}`, `${target}:${targetPort}`, packet.originalLength);
      if (payload.length > 0) this.trackSegment(`${source}:${sourcePort}>${target}:${targetPort}`, seq);
      if (sourcePort === 443 || targetPort === 443) this.protocols.tlsByPort += 1;
      if (payload.length >= 6 && payload[0] === 0x16 && payload[1] === 0x03) {
        this.protocols.tlsByParse += 1;
        const name = serverName(payload);
        if (name) this.countServerName(clip(name));
      }
      return;
    }
    if (protocol === 17) {
      this.protocols.udp += 1;
      const sourcePort = data.readUInt16BE(at);
      const targetPort = data.readUInt16BE(at + 2);
      this.converse('UDP', `${source}:${sourcePort}`, `${target}:${targetPort}`, packet.originalLength);
      if (sourcePort === 53 || targetPort === 53 || sourcePort === 5353 || targetPort === 5353) {
        this.protocols.dns += 1;
        const message = data.subarray(at + 8, end);
        const parsed = dnsMessage(message);
        if (parsed) {
          this.dnsMessages += 1;
          if (this.dns.length < CAPTURE_LIMITS.dnsMessages)
            this.dns.push({
              time: new Date(packet.timeUs / 1000).toISOString(),
              ...parsed,
              question: clip(parsed.question),
              answers: parsed.answers.slice(0, CAPTURE_LIMITS.dnsAnswers).map(clip),
            });
        }
      }
      return;
    }
    this.protocols.other += 1;
  }

  private countServerName(name: string): void {
    const count = this.serverNames.get(name);
    if (count !== undefined) this.serverNames.set(name, count + 1);
    else if (this.serverNames.size < MAX_NAMES_TRACKED) this.serverNames.set(name, 1);
    else this.serverNamesNotTracked += 1;
  }

  /** A segment whose sequence number this flow already carried with data is probably a retransmission. */
  private trackSegment(flow: string, seq: number): void {
    let state = this.flows.get(flow);
    if (!state) {
      if (this.flows.size >= MAX_FLOWS) return;
      state = { seqs: new Set(), order: [] };
      this.flows.set(flow, state);
    }
    if (state.seqs.has(seq)) {
      this.retransmissions += 1;
      return;
    }
    state.seqs.add(seq);
    state.order.push(seq);
    if (state.order.length > SEQS_PER_FLOW) state.seqs.delete(state.order.shift() ?? 0);
  }

  private converse(protocol: string, one: string, two: string, bytes: number): void {
    const [a, b] = one < two ? [one, two] : [two, one];
    const key = `${protocol} ${a} ${b}`;
    const conversation = this.conversations.get(key);
    if (conversation) {
      conversation.packets += 1;
      conversation.bytes += bytes;
    } else if (this.conversations.size < MAX_CONVERSATIONS)
      this.conversations.set(key, { protocol, a, b, packets: 1, bytes });
    else this.conversationsDropped += 1;
  }

  summary(file: {
    format: CaptureFormat;
    version: string;
    linkType: number | null;
    snapLength: number | null;
    fileBytes: number;
    sha256: string;
    problem: CaptureProblem | null;
  }): CaptureSummary {
    const duration = this.first !== null && this.last !== null ? (this.last - this.first) / 1_000_000 : 0;
    const seconds = [...this.seconds.entries()].sort((x, y) => x[0] - y[0]);
    const start = seconds[0]?.[0] ?? 0;
    const span = seconds.length ? (seconds.at(-1)?.[0] ?? start) - start + 1 : 0;
    const bucketSeconds = Math.max(1, Math.ceil(span / TIMELINE_POINTS));
    const points = new Map<number, { packets: number; bytes: number }>();
    for (const [second, counts] of seconds) {
      const at = start + Math.floor((second - start) / bucketSeconds) * bucketSeconds;
      const point = points.get(at) ?? { packets: 0, bytes: 0 };
      point.packets += counts.packets;
      point.bytes += counts.bytes;
      points.set(at, point);
    }
    const linkType = file.linkType ?? [...this.linkTypes.keys()][0] ?? null;
    const conversationsTotal = this.conversations.size + this.conversationsDropped;
    const namesTotal = this.serverNames.size + this.serverNamesNotTracked;
    const cut: CaptureSummary['cut'] = [];
    const noteCut = (list: CaptureSummary['cut'][number]['list'], shown: number, total: number) => {
      if (total > shown) cut.push({ list, shown, total });
    };
    noteCut('conversations', Math.min(conversationsTotal, CAPTURE_LIMITS.conversations), conversationsTotal);
    noteCut('dns', this.dns.length, this.dnsMessages);
    noteCut('tlsServerNames', Math.min(namesTotal, CAPTURE_LIMITS.tlsServerNames), namesTotal);
    return {
      format: file.format,
      version: file.version,
      linkType,
      linkTypeName: linkType === null ? 'unknown' : (LINK_TYPES[linkType] ?? `link type ${linkType}`),
      snapLength: file.snapLength,
      fileBytes: file.fileBytes,
      sha256: file.sha256,
      packets: this.packets,
      bytes: this.bytes,
      firstPacket: this.first === null ? null : new Date(this.first / 1000).toISOString(),
      lastPacket: this.last === null ? null : new Date(this.last / 1000).toISOString(),
      durationSeconds: Math.round(duration * 1_000_000) / 1_000_000,
      averagePacketsPerSecond: duration > 0 ? Math.round((this.packets / duration) * 100) / 100 : 0,
      averageBytesPerSecond: duration > 0 ? Math.round((this.bytes / duration) * 100) / 100 : 0,
      averagePacketBytes: this.packets ? Math.round((this.bytes / this.packets) * 100) / 100 : 0,
      protocols: { ...this.protocols },
      conversations: [...this.conversations.values()]
        .sort((x, y) => y.bytes - x.bytes)
        .slice(0, CAPTURE_LIMITS.conversations),
      conversationsNotTracked: this.conversationsDropped,
      tcpResets: this.resets,
      tcpRetransmissions: this.retransmissions,
      dns: this.dns,
      tlsServerNames: [...this.serverNames.entries()]
        .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
        .slice(0, CAPTURE_LIMITS.tlsServerNames)
        .map(([name, count]) => ({ name, count })),
      timeline: {
        bucketSeconds,
        points: [...points.entries()].map(([second, counts]) => ({
          time: new Date(second * 1000).toISOString(),
          ...counts,
        })),
      },
      problem: file.problem,
      cut,
    };
  }
}

const DNS_TYPES: Record<number, string> = {
  1: 'A',
  2: 'NS',
  5: 'CNAME',
  6: 'SOA',
  12: 'PTR',
  15: 'MX',
  16: 'TXT',
  28: 'AAAA',
  33: 'SRV',
  65: 'HTTPS',
};

/** A DNS name at `at`, following compression pointers (at most 16 jumps, 255 characters). */
function dnsName(message: Buffer, at: number): { name: string; next: number } {
  const labels: string[] = [];
  let offset = at;
  let next = -1;
  for (let jumps = 0; jumps < 16;) {
    const length = message[offset];
    if (length === undefined) throw new RangeError('name runs past the message');
    if (length === 0) {
      if (next < 0) next = offset + 1;
      return { name: labels.join('.') || '.', next };
    }
    if ((length & 0xc0) === 0xc0) {
      if (next < 0) next = offset + 2;
      offset = ((length & 0x3f) << 8) | (message[offset + 1] ?? 0);
      jumps++;
      continue;
    }
    if (offset + 1 + length > message.length) throw new RangeError('label runs past the message');
    labels.push(message.toString('latin1', offset + 1, offset + 1 + length));
    if (labels.join('.').length > 255) throw new RangeError('name too long');
    offset += 1 + length;
  }
  throw new RangeError('too many compression pointers');
}

/** The question and answers of a DNS message, or null when it is not one. */
function dnsMessage(
  message: Buffer,
): { id: number; response: boolean; question: string; type: string; answers: string[] } | null {
  try {
    if (message.length < 12) return null;
    const flags = message.readUInt16BE(2);
    const questions = message.readUInt16BE(4);
    const answers = message.readUInt16BE(6);
    if (questions < 1) return null;
    const question = dnsName(message, 12);
    const type = message.readUInt16BE(question.next);
    let offset = question.next + 4;
    for (let skip = 1; skip < questions; skip++) offset = dnsName(message, offset).next + 4;
    const found: string[] = [];
    for (let index = 0; index < Math.min(answers, 32); index++) {
      const owner = dnsName(message, offset);
      const answerType = message.readUInt16BE(owner.next);
      const length = message.readUInt16BE(owner.next + 8);
      const data = owner.next + 10;
      if (data + length > message.length) break;
      if (answerType === 1 && length === 4) found.push(`A ${ipv4(message, data)}`);
      else if (answerType === 28 && length === 16) found.push(`AAAA ${ipv6(message, data)}`);
      else if (answerType === 5) found.push(`CNAME ${dnsName(message, data).name}`);
      else found.push(`${DNS_TYPES[answerType] ?? `type ${answerType}`}`);
      offset = data + length;
    }
    return {
      id: message.readUInt16BE(0),
      response: (flags & 0x8000) !== 0,
      question: question.name,
      type: DNS_TYPES[type] ?? `type ${type}`,
      answers: found,
    };
  } catch {
    return null;
  }
}

/** The server name (SNI) of a TLS ClientHello at the start of a TCP payload, or null. */
export function serverName(payload: Buffer): string | null {
  try {
    if (payload[0] !== 0x16 || payload[5] !== 0x01) return null;
    let at = 5 + 4 + 2 + 32; // handshake header, client version, random
    at += 1 + (payload[at] ?? 0); // session id
    at += 2 + payload.readUInt16BE(at); // cipher suites
    at += 1 + (payload[at] ?? 0); // compression methods
    const end = Math.min(payload.length, at + 2 + payload.readUInt16BE(at));
    at += 2;
    while (at + 4 <= end) {
      const type = payload.readUInt16BE(at);
      const length = payload.readUInt16BE(at + 2);
      if (type === 0) {
        const nameLength = payload.readUInt16BE(at + 7);
        const name = payload.toString('latin1', at + 9, at + 9 + nameLength);
        return /^[\x21-\x7e]+$/.test(name) ? name : null;
      }
      at += 4 + length;
    }
    return null;
  } catch {
    return null;
  }
}
