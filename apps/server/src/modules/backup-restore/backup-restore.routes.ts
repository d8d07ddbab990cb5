import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BACKUP_MESSAGES,
  BACKUP_UPLOAD_MAX_BYTES,
  backupListQuerySchema,
  backupItemsSchema,
  backupListSchema,
  backupSchema,
  createBackupsSchema,
  driftExportQuerySchema,
  driftRequestSchema,
  driftSchema,
} from '@ce/contract';
import { requireUser } from '../../core/access.js';
import { sendAttachment } from '../../core/attachment.js';
import { AppError, errorResponses } from '../../core/errors.js';
import { filePart, readUploadForm, registerUploads } from '../../core/uploads.js';
import { utcMinute } from '../../report-kit/dates.js';
import type { BackupsService } from './backup-restore.service.js';
import { driftHtml, driftWorkbook } from './drift-export.js';

const errors = errorResponses(400, 401, 403, 404, 409, 502);
const params = z.object({ id: z.uuid() });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The backups API: back up groups, list, download, upload and delete archives, compare with live or another backup. */
export const backupsRoutes: FastifyPluginAsyncZod<{ backups: BackupsService }> = async (app, { backups }) => {
  await registerUploads(app);
  const tagged = { tags: ['backup-restore'] };

  app.post(
    '/api/backups',
    {
      schema: {
        ...tagged,
        operationId: 'createBackups',
        summary: 'Back up account groups (one backup each); the server reads them at the organization’s pace',
        body: createBackupsSchema,
        response: { 202: z.object({ backups: z.array(backupSchema) }), ...errors },
      },
    },
    async (request, reply) =>
      reply.status(202).send({ backups: await backups.create(requireUser(request), request.body) }),
  );

  app.get(
    '/api/backups',
    {
      schema: {
        ...tagged,
        operationId: 'listBackups',
        summary: 'Backups, searched by group, organization or author, sorted',
        querystring: backupListQuerySchema,
        response: { 200: backupListSchema, ...errors },
      },
    },
    async (request) => ({ backups: await backups.list(requireUser(request), request.query) }),
  );

  app.get(
    '/api/backups/:id',
    {
      schema: {
        ...tagged,
        operationId: 'getBackup',
        summary: 'One backup: who, when, item counts, size and checksum',
        params,
        response: { 200: backupSchema, ...errors },
      },
    },
    async (request) => backups.get(requireUser(request), request.params.id),
  );

  app.get(
    '/api/backups/:id/archive',
    {
      schema: {
        ...tagged,
        operationId: 'downloadBackup',
        summary: 'The backup as a zip of JSON files with its manifest',
        params,
      },
    },
    async (request, reply) => {
      const file = await backups.download(requireUser(request), request.params.id);
      return sendAttachment(reply, {
        filename: file.filename,
        contentType: 'application/zip',
        body: Readable.from(file.chunks),
      });
    },
  );

  app.get(
    '/api/backups/:id/items',
    {
      schema: {
        ...tagged,
        operationId: 'listBackupItems',
        summary: "The backup's items by kind and name (and the fields masked in each), to pick what to restore",
        params,
        response: { 200: backupItemsSchema, ...errors },
      },
    },
    async (request) => backups.itemsOf(requireUser(request), request.params.id),
  );

  app.post(
    '/api/backups/upload',
    {
      config: {
        upload: true,
        uploadForm: { required: ['file'], properties: { file: filePart('A backup archive (zip), 100 MB at most') } },
      },
      schema: {
        ...tagged,
        operationId: 'uploadBackup',
        summary: 'Keep an archive downloaded before (multipart: file); recognised by its content and checked whole',
        consumes: ['multipart/form-data'],
        response: { 201: backupSchema, ...errors },
      },
    },
    async (request, reply) => {
      const form = await readUploadForm(request, {
        fields: new Set(),
        isFile: (name) => name === 'file',
        limits: { fileSize: BACKUP_UPLOAD_MAX_BYTES, files: 1, fields: 0, fieldSize: 0, parts: 1 },
        notMultipart: () => new AppError(400, 'multipart_required', 'Send the archive as multipart/form-data'),
        tooLarge: () =>
          new AppError(400, 'file_too_large', 'The archive is larger than 100 MB.', [
            { path: 'file', message: 'The archive is larger than 100 MB.' },
          ]),
      });
      const file = form.files.get('file');
      if (!file?.length)
        throw new AppError(400, 'file_required', BACKUP_MESSAGES.notAnArchive, [
          { path: 'file', message: BACKUP_MESSAGES.notAnArchive },
        ]);
      return reply.status(201).send(await backups.upload(requireUser(request), file));
    },
  );

  app.delete(
    '/api/backups/:id',
    {
      schema: {
        ...tagged,
        operationId: 'deleteBackup',
        summary: 'Delete a backup and its archive (its owner, or a Super User); audited',
        params,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await backups.delete(requireUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/backups/:id/drift',
    {
      schema: {
        ...tagged,
        operationId: 'compareBackup',
        summary: 'What changed since the backup: against the live group (a token) or another backup',
        params,
        body: driftRequestSchema,
        response: { 200: driftSchema, ...errors },
      },
    },
    async (request) => backups.compare(requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/backups/:id/drift/export',
    {
      schema: {
        ...tagged,
        operationId: 'exportBackupDrift',
        summary: 'The comparison as XLSX or HTML',
        params,
        querystring: driftExportQuerySchema,
        body: driftRequestSchema,
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const backup = await backups.get(user, request.params.id);
      const drift = await backups.compare(user, request.params.id, request.body);
      const title = `${backup.accountGroupName}, backup of ${utcMinute(new Date(backup.createdAt))}`;
      const name = `drift-${backup.id.slice(0, 8)}`;
      return sendAttachment(
        reply,
        request.query.format === 'html'
          ? { filename: `${name}.html`, contentType: 'text/html; charset=utf-8', body: driftHtml(title, drift) }
          : { filename: `${name}.xlsx`, contentType: XLSX, body: await driftWorkbook(title, drift) },
      );
    },
  );
};
