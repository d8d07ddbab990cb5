import { createHash } from 'node:crypto';
import type { CaptureSummary } from '@ce/contract';
import { CaptureReader } from './capture-reader.js';
import { CaptureStats } from './capture-summary.js';

export interface Analysis {
  summary: CaptureSummary | null;
  /** Why there is no summary: the file is no capture at all. */
  refused: string | null;
}

/**
 * Reads a capture as it streams in: hashes every byte, parses records as they complete, and keeps only
 * bounded statistics, so a file of any size costs the same memory. `onChunk` sees each chunk (to store it).
 */
export async function analyzeCapture(
  chunks: AsyncIterable<Buffer>,
  onChunk: (chunk: Buffer) => Promise<void> = async () => undefined,
): Promise<Analysis> {
  const hash = createHash('sha256');
  const stats = new CaptureStats();
  const reader = new CaptureReader((packet) => stats.add(packet));
  let fileBytes = 0;
  for await (const chunk of chunks) {
    fileBytes += chunk.length;
    hash.update(chunk);
    const reading = reader.push(chunk);
    // Not a capture at all: nothing more to learn from the rest (the caller drains it).
    if (!reading && reader.format === null) break;
    await onChunk(chunk);
  }
  reader.end();
  if (reader.format === null)
    return { summary: null, refused: reader.problem?.message ?? 'This is not a packet capture (pcap or pcapng).' };
  return {
    summary: stats.summary({
      format: reader.format,
      version: reader.version,
      linkType: reader.linkType,
      snapLength: reader.snapLength,
      fileBytes,
      sha256: hash.digest('hex'),
      problem: reader.problem,
    }),
    refused: null,
  };
}
