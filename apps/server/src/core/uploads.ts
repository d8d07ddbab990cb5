import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes files: its body may take the upload time limit to arrive, not the request one. */
    upload?: boolean;
    /**
     * The multipart form an upload route reads, for the API document only (the route reads its parts
     * itself): its fields, files as `{ type: 'string', format: 'binary' }`.
     */
    uploadForm?: { required: string[]; properties: Record<string, Record<string, unknown>> };
  }
}

/** A file part of an upload form, as the API document describes it. */
export const filePart = (description: string) => ({ type: 'string', format: 'binary', description });

/** What a caller reads when a multipart request cannot be read at all. */
export const MALFORMED_UPLOAD_MESSAGE =
  'The upload was cut short or is not a well-formed multipart form: send the file again.';

/**
 * The multipart parser's own words for a form it cannot read: no boundary in the content type, a body that
 * ends before its closing boundary, a part cut short or with a broken header. Anything else stays what it is.
 */
const MALFORMED =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|Part terminated early|Malformed part header|Unexpected end of form)/i;

/** Whether an error is a malformed multipart request (the caller's fault, a 400), not one of ours. */
export function isMalformedUpload(error: unknown): boolean {
  return error instanceof Error && !('statusCode' in error) && MALFORMED.test(error.message);
}

/**
 * Lets a module's routes read multipart uploads: a file over its limit throws (never silently truncates),
 * and a malformed request becomes a 400 with MALFORMED_UPLOAD_MESSAGE in the shared error handler.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true });
}
