import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, errorCode } from './errors.js';
import { unstorableProblem, unstorableText } from './text-at-the-door.js';

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
 * How Node tells that a request's body ended before the form did: its stream closed early. Recognised by the
 * error's code, which stays the same from one Node release to the next (Node 24 reports a body cut before its
 * closing boundary this way, where Node 20 let the parser say it in words).
 */
const CUT_SHORT_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE']);

/**
 * The multipart parser's errors carry no code, only words: no boundary in the content type, a body that ends
 * before its closing boundary, a part cut short or with a broken header. Anything else stays what it is.
 */
const MALFORMED =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|Part terminated early|Malformed part header|Unexpected end of form)/i;

/** Whether an error is a malformed multipart request (the caller's fault, a 400), not one of ours. */
export function isMalformedUpload(error: unknown): boolean {
  if (!(error instanceof Error) || 'statusCode' in error) return false;
  const code = errorCode(error);
  if (code !== undefined) return CUT_SHORT_CODES.has(code);
  return MALFORMED.test(error.message);
}

/**
 * Lets a module's routes read multipart uploads: a file over its limit throws (never silently truncates),
 * and a malformed request becomes a 400 with MALFORMED_UPLOAD_MESSAGE in the shared error handler.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true });
}

/** A multipart form a route reads whole: which fields and files it takes, its limits, its messages. */
export interface UploadForm {
  /** Text fields kept; others are ignored (within `limits.fields`). */
  fields: ReadonlySet<string>;
  /** Whether a file field is one of the form's; any other file is refused. */
  isFile(fieldname: string): boolean;
  limits: { fileSize: number; files: number; fields: number; fieldSize: number; parts: number };
  /** The error for a request that is not multipart at all. */
  notMultipart(): AppError;
  /** The error for a file past `limits.fileSize` (thrown as soon as it passes the limit). */
  tooLarge(fieldname: string): AppError;
}

/**
 * Reads a multipart form whole: its text fields by name (one holding a NUL or a lone surrogate refused, naming it),
 * its files by field name.
 */
export async function readUploadForm(
  request: FastifyRequest,
  form: UploadForm,
): Promise<{ fields: Record<string, string>; files: Map<string, Buffer> }> {
  if (!request.isMultipart()) throw form.notMultipart();
  const fields: Record<string, string> = {};
  const files = new Map<string, Buffer>();
  for await (const part of request.parts({ limits: form.limits })) {
    if (part.type === 'field') {
      if (!form.fields.has(part.fieldname)) continue;
      const value = String(part.value);
      // A field's text is refused as a JSON body's would be: the database could not store it (text-at-the-door.ts).
      const problem = unstorableProblem(value);
      if (problem) throw unstorableText(part.fieldname, problem);
      fields[part.fieldname] = value;
      continue;
    }
    if (!form.isFile(part.fieldname))
      throw new AppError(400, 'unexpected_file', `Unexpected file field ${part.fieldname}`);
    try {
      files.set(part.fieldname, await part.toBuffer());
    } catch (error) {
      if (errorCode(error) === 'FST_REQ_FILE_TOO_LARGE') throw form.tooLarge(part.fieldname);
      throw error;
    }
  }
  return { fields, files };
}
