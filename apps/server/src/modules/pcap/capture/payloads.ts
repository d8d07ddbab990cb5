/** Addresses as text: dotted IPv4, IPv6 with its longest run of zero groups as '::'. */
export const ipv4 = (data: Buffer, at: number) => `${data[at]}.${data[at + 1]}.${data[at + 2]}.${data[at + 3]}`;
export function ipv6(data: Buffer, at: number): string {
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
/** A DNS message's id, direction, question and answers. */
export interface DnsMessage {
  id: number;
  response: boolean;
  question: string;
  type: string;
  answers: string[];
}

export function dnsMessage(message: Buffer): DnsMessage | null {
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
