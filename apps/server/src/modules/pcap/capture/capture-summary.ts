import { CAPTURE_LIMITS, type CaptureSummary } from '@ce/contract';
import type { CapturedPacket, CaptureFormat, CaptureProblem } from './capture-reader.js';
import { decodePacket, type PacketSink } from './decode.js';
import type { DnsMessage } from './payloads.js';

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

/** What the packets of a capture add up to, kept in bounded memory however long the capture is. */
export class CaptureStats implements PacketSink {
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
  private readonly dnsSeen: CaptureSummary['dns'] = [];
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
      decodePacket(packet, this);
    } catch {
      // A packet shorter than its headers say is counted, not decoded.
      this.protocols.other += 1;
    }
  }

  count(protocol: keyof Protocols): void {
    this.protocols[protocol] += 1;
  }

  reset(): void {
    this.resets += 1;
  }

  dns(timeUs: number, message: DnsMessage): void {
    this.dnsMessages += 1;
    if (this.dnsSeen.length < CAPTURE_LIMITS.dnsMessages)
      this.dnsSeen.push({
        time: new Date(timeUs / 1000).toISOString(),
        ...message,
        question: clip(message.question),
        answers: message.answers.slice(0, CAPTURE_LIMITS.dnsAnswers).map(clip),
      });
  }

  serverName(full: string): void {
    const name = clip(full);
    const count = this.serverNames.get(name);
    if (count !== undefined) this.serverNames.set(name, count + 1);
    else if (this.serverNames.size < MAX_NAMES_TRACKED) this.serverNames.set(name, 1);
    else this.serverNamesNotTracked += 1;
  }

  /** A segment whose sequence number this flow already carried with data is probably a retransmission. */
  segment(flow: string, seq: number): void {
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

  converse(protocol: string, one: string, two: string, bytes: number): void {
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
    noteCut('dns', this.dnsSeen.length, this.dnsMessages);
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
      dns: this.dnsSeen,
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
