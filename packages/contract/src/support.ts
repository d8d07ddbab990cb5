import { z } from 'zod';

/**
 * How much of each list a capture's summary keeps, and how long a name in it may be (a DNS name is at most
 * 253 characters): a capture built to grow the answer, the list or a Webex message gets a bounded summary
 * that says what it left out.
 */
export const CAPTURE_LIMITS = {
  conversations: 10,
  dnsMessages: 100,
  dnsAnswers: 8,
  tlsServerNames: 100,
  textLength: 253,
  /** Captures per page of the history. */
  pageSize: 25,
  maxPageSize: 100,
} as const;

export const CAPTURE_LISTS = ['conversations', 'dns', 'tlsServerNames'] as const;

/** Packet captures: what the analysis of one file says (capinfos and a first look in Wireshark). */
export const captureSummarySchema = z.object({
  format: z.enum(['pcap', 'pcap-ns', 'pcapng']),
  version: z.string(),
  linkType: z.number().int().nullable(),
  linkTypeName: z.string(),
  snapLength: z.number().int().nullable(),
  fileBytes: z.number().int(),
  sha256: z.string(),
  packets: z.number().int(),
  /** Captured bytes of every packet (capinfos' "data size"). */
  bytes: z.number().int(),
  firstPacket: z.string().nullable(),
  lastPacket: z.string().nullable(),
  durationSeconds: z.number(),
  averagePacketsPerSecond: z.number(),
  averageBytesPerSecond: z.number(),
  averagePacketBytes: z.number(),
  protocols: z.object({
    ethernet: z.number().int(),
    vlan: z.number().int(),
    arp: z.number().int(),
    ipv4: z.number().int(),
    ipv6: z.number().int(),
    tcp: z.number().int(),
    udp: z.number().int(),
    icmp: z.number().int(),
    dns: z.number().int(),
    tlsByPort: z.number().int(),
    tlsByParse: z.number().int(),
    other: z.number().int(),
  }),
  conversations: z.array(
    z.object({
      protocol: z.string(),
      a: z.string(),
      b: z.string(),
      packets: z.number().int(),
      bytes: z.number().int(),
    }),
  ),
  conversationsNotTracked: z.number().int(),
  tcpResets: z.number().int(),
  tcpRetransmissions: z.number().int(),
  dns: z.array(
    z.object({
      time: z.string(),
      id: z.number().int(),
      response: z.boolean(),
      question: z.string(),
      type: z.string(),
      answers: z.array(z.string()),
    }),
  ),
  tlsServerNames: z.array(z.object({ name: z.string(), count: z.number().int() })),
  timeline: z.object({
    bucketSeconds: z.number().int(),
    points: z.array(z.object({ time: z.string(), packets: z.number().int(), bytes: z.number().int() })),
  }),
  /** Where the file stopped making sense; what came before is summarised. */
  problem: z.object({ offset: z.number().int(), message: z.string() }).nullable(),
  /** The lists that were cut to their limit: how many are shown of how many there were. */
  cut: z.array(z.object({ list: z.enum(CAPTURE_LISTS), shown: z.number().int(), total: z.number().int() })).default([]),
});
export type CaptureSummary = z.infer<typeof captureSummarySchema>;

export const captureEntrySchema = z.object({
  id: z.string(),
  filename: z.string(),
  uploadedBy: z.string(),
  createdAt: z.string(),
  summary: captureSummarySchema,
  sharedWith: z.array(z.object({ email: z.string(), caseNumber: z.string(), at: z.string() })),
});
export type CaptureEntry = z.infer<typeof captureEntrySchema>;

/** A capture in the history: what the list shows, without its summary (read one capture for that). */
export const captureListItemSchema = captureEntrySchema
  .omit({ summary: true })
  .extend({ size: z.number().int(), packets: z.number().int() });
export type CaptureListItem = z.infer<typeof captureListItemSchema>;

export const captureListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(CAPTURE_LIMITS.maxPageSize).default(CAPTURE_LIMITS.pageSize),
});

export const captureListSchema = z.object({
  captures: z.array(captureListItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CaptureList = z.infer<typeof captureListSchema>;

export const shareCaptureSchema = z.object({
  email: z.email('Enter the email address of the person to send it to'),
  caseNumber: z.string().trim().min(1, 'Enter the case number').max(64),
});

export const PCAP_MESSAGES = {
  notACapture: 'This is not a packet capture (pcap or pcapng).',
  tooLarge: (megabytes: number) => `The capture is larger than ${megabytes} MB.`,
  fileRequired: 'Choose a capture file (.pcap or .pcapng)',
  shared: 'Summary and capture sent in Webex',
} as const;

/** The diagnostic tool: what a support engineer asks first about a customer's token. */
export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'unknown'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const diagnosticCheckSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(CHECK_STATUSES),
  detail: z.string(),
  items: z.array(z.string()),
});
export type DiagnosticCheck = z.infer<typeof diagnosticCheckSchema>;

export const diagnosticReportSchema = z.object({
  id: z.string(),
  generatedAt: z.string(),
  identity: z
    .object({
      name: z.string(),
      email: z.string(),
      isOrgAdmin: z.boolean(),
      roles: z.array(z.object({ aid: z.string(), accountGroupName: z.string(), roles: z.array(z.string()) })),
    })
    .nullable(),
  organizations: z.array(z.string()),
  accountGroups: z.array(z.object({ aid: z.string(), accountGroupName: z.string(), organizationName: z.string() })),
  platform: z.object({
    answerMs: z.number(),
    rateLimit: z.object({ limit: z.number(), remaining: z.number(), resetAt: z.string().nullable() }).nullable(),
  }),
  permissions: z.array(
    z.object({ name: z.string(), status: z.enum(['granted', 'missing', 'unknown']), via: z.string() }),
  ),
  tools: z.array(
    z.object({ tool: z.string(), needs: z.array(z.string()), missing: z.array(z.string()), ready: z.boolean() }),
  ),
  checks: z.array(diagnosticCheckSchema),
});
export type DiagnosticReport = z.infer<typeof diagnosticReportSchema>;

export const diagnoseRequestSchema = z.object({
  token: z.string().trim().min(1, 'OAuth token not provided').max(4096),
});
export const sendDiagnosticSchema = z.object({ email: z.email('Enter the email address of the person to send it to') });
