import type { FastifyReply } from 'fastify';

/** A file an answer hands over for download. */
export interface Attachment {
  filename: string;
  contentType: string;
  body: Buffer | string | NodeJS.ReadableStream;
}

/** Sends a file as a download: never cached, never sniffed into something else. */
export function sendAttachment(reply: FastifyReply, file: Attachment) {
  return reply
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.body);
}
