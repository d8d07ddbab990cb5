import { z } from 'zod';
import { linksSchema } from './schemas.js';

// What a customer review reads beyond the measured checks: Internet Insights outages and test snapshots.

/** The document types ids of affected tests and agents as integers; the tools keep every id as a string. */
const idText = z.union([z.string(), z.number()]).transform((value) => String(value));

/** An outage of a network or an application (`POST /internet-insights/outages/filter`). */
export const outageSchema = z.looseObject({
  id: z.string(),
  /** `network` or `app`: which details call reads it (`/outages/net/{id}` or `/outages/app/{id}`). */
  type: z.string().optional(),
  providerName: z.string().optional(),
  providerType: z.string().optional(),
  name: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  duration: z.number().optional(),
  affectedTestsCount: z.number().optional(),
  affectedServersCount: z.number().optional(),
  affectedLocationsCount: z.number().optional(),
  affectedInterfacesCount: z.number().optional(),
  asn: z.number().optional(),
});
export type PlatformOutage = z.infer<typeof outageSchema>;
export const outagesResponseSchema = z.looseObject({ outages: z.array(outageSchema).default([]) });

const named = z.looseObject({ id: idText, name: z.string().optional() });

/** A network outage with what it touched (`GET /internet-insights/outages/net/{outageId}`). */
export const networkOutageDetailSchema = z.looseObject({
  id: z.string(),
  providerName: z.string().optional(),
  providerType: z.string().optional(),
  networkName: z.string().optional(),
  asn: z.number().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  duration: z.number().optional(),
  affectedTests: z.array(named).default([]),
  affectedAgents: z.array(named).default([]),
  affectedDomains: z.array(z.string()).default([]),
  affectedLocations: z
    .array(z.looseObject({ location: z.string().optional(), affectedInterfaces: z.array(z.string()).optional() }))
    .default([]),
});
export type PlatformNetworkOutageDetail = z.infer<typeof networkOutageDetailSchema>;

/** What a snapshot covers (`POST /tests/{testId}/snapshot`): a title and a range of 1, 2, 4, 6, 12, 24 or 48 hours. */
export interface SnapshotRequest {
  displayName: string;
  startDate: string;
  endDate: string;
  /** True: a private snapshot (a saved event); false, the default: a share link anyone with it may open. */
  isPublic?: boolean;
}

/** The hours a snapshot may cover, per the document. */
export const SNAPSHOT_RANGE_HOURS = [1, 2, 4, 6, 12, 24, 48] as const;
/** The document's limit: at most this many snapshots per organization within `SNAPSHOT_LIMIT_WINDOW_MS`. */
export const SNAPSHOT_LIMIT = 5;
export const SNAPSHOT_LIMIT_WINDOW_MS = 5 * 60_000;
/** A snapshot made through the API expires this long after it was made. */
export const SNAPSHOT_EXPIRY_MS = 30 * 86_400_000;

/** A snapshot made: its share link is `_links.appLink.href`. */
export const snapshotSchema = z.looseObject({
  id: z.string(),
  displayName: z.string().optional(),
  shareDate: z.string().optional(),
  sourceTestId: z.string().optional(),
  testId: z.string().optional(),
  startRoundId: z.number().optional(),
  endRoundId: z.number().optional(),
  _links: linksSchema.extend({ appLink: z.looseObject({ href: z.string() }).optional() }).optional(),
});
export type PlatformSnapshot = z.infer<typeof snapshotSchema>;
