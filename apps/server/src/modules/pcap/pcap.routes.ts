import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  captureEntrySchema,
  captureListQuerySchema,
  captureListSchema,
  PCAP_MESSAGES,
  shareCaptureSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { AppError, errorResponses } from '../../core/errors.js';
import { unstorableProblem, unstorableText } from '../../core/text-at-the-door.js';
import { filePart, registerUploads } from '../../core/uploads.js';
import type { PcapService } from './pcap.service.js';

const errors = errorResponses(400, 401, 403, 404, 503);
const params = z.object({ id: z.uuid() });

/** The packet-capture tool's API (Support group). */
export const pcapRoutes: FastifyPluginAsyncZod<{ pcap: PcapService }> = async (app, { pcap }) => {
  await registerUploads(app);
  const tagged = { tags: ['support'] };

  app.post(
    '/api/pcap',
    {
      config: {
        upload: true,
        uploadForm: {
          required: ['file'],
          properties: {
            file: filePart('A pcap or pcapng capture, recognised by its content (PCAP_MAX_MB at most)'),
          },
        },
      },
      schema: {
        ...tagged,
        operationId: 'analyzeCapture',
        summary: 'Upload a pcap or pcapng file (multipart field `file`) and get its summary',
        consumes: ['multipart/form-data'],
        response: { 201: captureEntrySchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (!request.isMultipart()) throw new AppError(400, 'multipart_required', PCAP_MESSAGES.fileRequired);
      const part = await request.file({ limits: { fileSize: pcap.maxBytes, files: 1, fields: 2 } });
      if (!part || part.fieldname !== 'file') throw new AppError(400, 'file_required', PCAP_MESSAGES.fileRequired);
      try {
        // The file's name is kept with the capture: one the database could not store is refused, naming it.
        const problem = unstorableProblem(part.filename);
        if (problem) throw unstorableText('file name', problem);
        return reply.status(201).send(await pcap.analyze(user, part.filename, part.file, () => part.file.truncated));
      } finally {
        // Whatever was not read (a file refused at its first bytes) is drained so the request ends cleanly.
        part.file.resume();
      }
    },
  );

  app.get(
    '/api/pcap',
    {
      schema: {
        ...tagged,
        operationId: 'listCaptures',
        summary:
          'A page of the captures kept, newest first, without their summaries (your own; a Super User sees everyone’s)',
        querystring: captureListQuerySchema,
        response: { 200: captureListSchema, ...errors },
      },
    },
    async (request) => pcap.list(requireUser(request), request.query.page, request.query.pageSize),
  );

  app.get(
    '/api/pcap/:id',
    {
      schema: {
        ...tagged,
        operationId: 'getCapture',
        summary: 'One capture kept, with its summary',
        params,
        response: { 200: captureEntrySchema, ...errors },
      },
    },
    async (request) => pcap.entry(requireUser(request), request.params.id),
  );

  app.get(
    '/api/pcap/:id/file',
    { schema: { ...tagged, operationId: 'downloadCapture', summary: 'The capture file as uploaded', params } },
    async (request, reply) => {
      const row = await pcap.own(requireUser(request), request.params.id);
      return reply
        .type('application/vnd.tcpdump.pcap')
        .header('content-disposition', `attachment; filename="${row.filename.replace(/[^\w.-]/g, '_')}"`)
        .header('content-length', row.size)
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(pcap.chunks(row.id)));
    },
  );

  app.post(
    '/api/pcap/:id/share',
    {
      schema: {
        ...tagged,
        operationId: 'shareCapture',
        summary: 'Send the summary and the file to a person in Webex, for a case',
        params,
        body: shareCaptureSchema,
        response: { 200: captureEntrySchema, ...errors },
      },
    },
    async (request) => pcap.share(requireUser(request), request.params.id, request.body.email, request.body.caseNumber),
  );
};
