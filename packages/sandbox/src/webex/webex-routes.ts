import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { LIMITS } from '../bounded.js';
import { escapeHtml, page } from '../html.js';
import {
  personIdOf,
  SANDBOX_BOT_EMAIL,
  SANDBOX_ORG_ID,
  WEBEX_TEXT_LIMIT_BYTES,
  type WebexFile,
  type WebexMessage,
  type WebexState,
} from './webex-state.js';

function webexError(reply: FastifyReply, status: number, message: string) {
  return reply.status(status).send({ message, errors: [{ description: message }], trackingId: `SBX_${randomUUID()}` });
}

/**
 * Webex Messages API stand-in (POST /v1/messages, JSON or multipart with one file), with the real
 * limits, a 429-with-Retry-After scenario, and a page listing what was delivered to whom. Only the
 * configured bot token may post; files are served back as inert attachments.
 */
export const webexRoutes: FastifyPluginAsync<{ state: WebexState; botToken: string }> = async (
  app,
  { state, botToken },
) => {
  const expected = Buffer.from(`Bearer ${botToken}`);
  const authorized = (authorization: string | undefined) => {
    const given = Buffer.from(authorization ?? '');
    return botToken !== '' && given.length === expected.length && timingSafeEqual(given, expected);
  };
  const unauthorized = (reply: FastifyReply) =>
    webexError(reply, 401, 'The request requires a valid access token set in the Authorization request header.');

  // List Direct Messages: the bot's 1:1 space with a person, newest first (max 1..1000, default 50).
  app.get('/v1/messages/direct', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return unauthorized(reply);
    const { personEmail, max } = request.query as { personEmail?: string; max?: string };
    if (!personEmail) return webexError(reply, 400, 'personId or personEmail is required.');
    const limit = Math.min(1000, Math.max(1, Number(max) || 50));
    const items = state.messages
      .filter((message) => message.toPersonEmail === personEmail)
      .slice(-limit)
      .reverse()
      .map((message) => ({
        id: message.id,
        roomId: `sandbox-direct-${message.toPersonEmail}`,
        roomType: 'direct',
        ...(message.text ? { text: message.text } : {}),
        ...(message.markdown ? { markdown: message.markdown } : {}),
        personEmail: 'ce-toolkit-bot@webex.bot',
        created: message.created,
      }));
    return { items };
  });

  // List Messages of a room, newest first: the bot's own messages there (what a delivery cut short looks for).
  app.get('/v1/messages', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return unauthorized(reply);
    const { roomId, max } = request.query as { roomId?: string; max?: string };
    if (!roomId) return webexError(reply, 400, 'roomId is required.');
    const limit = Math.min(1000, Math.max(1, Number(max) || 50));
    const items = state.messages
      .filter((message) => message.roomId === roomId)
      .slice(-limit)
      .reverse()
      .map((message) => ({
        id: message.id,
        roomId,
        roomType: 'group',
        ...(message.text ? { text: message.text } : {}),
        ...(message.markdown ? { markdown: message.markdown } : {}),
        personEmail: 'ce-toolkit-bot@webex.bot',
        created: message.created,
      }));
    return { items };
  });

  // Rooms and memberships (https://developer.webex.com/docs/api/v1/memberships): as for a bot on Webex, a room exists
  // for it only if it is a member, and one must be a member of a room to list its memberships.
  const roomNotFound = (reply: FastifyReply) => webexError(reply, 404, 'Could not find a room with provided ID.');

  app.post('/v1/rooms', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return unauthorized(reply);
    const { title } = (request.body ?? {}) as { title?: unknown };
    if (typeof title !== 'string' || title.trim() === '') return webexError(reply, 400, 'title is required.');
    const room = state.createRoom(title.slice(0, 200));
    return {
      id: room.id,
      title: room.title,
      type: 'group',
      isLocked: false,
      lastActivity: room.created,
      creatorId: personIdOf(SANDBOX_BOT_EMAIL),
      created: room.created,
      ownerId: SANDBOX_ORG_ID,
      isPublic: false,
      isReadOnly: false,
    };
  });

  // List Memberships: a room's (roomId), one person's in it (roomId with personEmail or personId), or, with neither,
  // the bot's own in every room it is in. personEmail and personId need roomId.
  app.get('/v1/memberships', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return unauthorized(reply);
    const { roomId, personEmail, personId, max } = request.query as Record<string, string | undefined>;
    const limit = Math.min(1000, Math.max(1, Number(max) || 100));
    if (!roomId) {
      if (personEmail || personId)
        return webexError(reply, 400, 'The roomId parameter is required when using personId or personEmail.');
      const own = [...state.rooms.values()].flatMap((room) =>
        room.memberships.filter((membership) => membership.personEmail === SANDBOX_BOT_EMAIL),
      );
      return { items: own.slice(0, limit) };
    }
    const room = state.rooms.get(roomId);
    if (!room) return roomNotFound(reply);
    const items = room.memberships
      .filter((membership) => !personEmail || membership.personEmail.toLowerCase() === personEmail.toLowerCase())
      .filter((membership) => !personId || membership.personId === personId)
      .slice(0, limit);
    return { items };
  });

  // Create a Membership: adds a person to a room the bot is in; a person already in it is a conflict.
  app.post('/v1/memberships', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return unauthorized(reply);
    const { roomId, personEmail, isModerator } = (request.body ?? {}) as Record<string, unknown>;
    if (typeof roomId !== 'string' || roomId === '') return webexError(reply, 400, 'roomId is required.');
    if (typeof personEmail !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(personEmail))
      return webexError(reply, 400, 'personId or personEmail is required.');
    const room = state.rooms.get(roomId);
    if (!room) return roomNotFound(reply);
    if (room.memberships.some((membership) => membership.personEmail.toLowerCase() === personEmail.toLowerCase()))
      return webexError(reply, 409, 'Person is already in the room.');
    return state.addMember(room, personEmail, isModerator === true);
  });

  // Delete a Membership: the person leaves the room (204).
  app.delete<{ Params: { id: string } }>('/v1/memberships/:id', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return unauthorized(reply);
    for (const room of state.rooms.values()) {
      const index = room.memberships.findIndex((membership) => membership.id === request.params.id);
      if (index < 0) continue;
      room.memberships.splice(index, 1);
      return reply.status(204).send();
    }
    return webexError(reply, 404, 'Membership not found.');
  });

  // Webex down (a test's fault): messages are neither taken nor listed.
  app.addHook('onRequest', async (request, reply) => {
    if (state.unavailableUntil > Date.now() && request.url.includes('/v1/messages'))
      return webexError(reply, 503, 'Service Unavailable');
  });

  app.post('/v1/messages', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return unauthorized(reply);
    if (state.throttledUntil > Date.now()) {
      reply.header('Retry-After', String(state.retryAfterSeconds));
      return webexError(reply, 429, 'Too Many Requests');
    }
    const fields: Record<string, string> = {};
    const files: WebexFile[] = [];
    if (request.isMultipart()) {
      try {
        for await (const part of request.parts({ limits: { files: 1, fileSize: LIMITS.webexFileBytes } })) {
          if (part.type === 'file') {
            files.push({
              id: randomUUID(),
              name: part.filename,
              contentType: part.mimetype,
              content: await part.toBuffer(),
            });
          } else {
            fields[part.fieldname] = String(part.value);
          }
        }
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_FILES_LIMIT') return webexError(reply, 400, 'Only one file may be attached to a message.');
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          return webexError(reply, 413, `The file exceeds the sandbox's limit of ${LIMITS.webexFileBytes} bytes.`);
        throw error;
      }
    } else {
      const body = (request.body ?? {}) as Record<string, unknown>;
      for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
      if (Array.isArray(body.files) && body.files.length > 0) {
        return webexError(reply, 400, 'Sandbox accepts files as multipart uploads only.');
      }
    }
    if ((state.throttledFor.get(fields.toPersonEmail ?? '') ?? 0) > Date.now()) {
      reply.header('Retry-After', String(state.retryAfterSeconds));
      return webexError(reply, 429, 'Too Many Requests');
    }
    if (files.length > 1) return webexError(reply, 400, 'Only one file may be attached to a message.');
    if (!fields.toPersonEmail && !fields.roomId && !fields.toPersonId) {
      return webexError(reply, 400, 'roomId, toPersonId or toPersonEmail is required.');
    }
    const text = fields.markdown ?? fields.text;
    if (!text && files.length === 0) return webexError(reply, 400, 'text, markdown or files is required.');
    if (text && Buffer.byteLength(text, 'utf8') > WEBEX_TEXT_LIMIT_BYTES) {
      return webexError(reply, 400, `Message text exceeds the maximum length of ${WEBEX_TEXT_LIMIT_BYTES} bytes.`);
    }
    const message: WebexMessage = {
      id: randomUUID(),
      toPersonEmail: fields.toPersonEmail ?? '',
      ...(fields.roomId ? { roomId: fields.roomId } : {}),
      markdown: fields.markdown,
      text: fields.text,
      file: files[0],
      created: new Date().toISOString(),
    };
    state.add(message);
    const base = `${request.protocol}://${request.host}${request.url.replace(/\/v1\/messages.*$/, '')}`;
    return {
      id: message.id,
      roomId: message.roomId ?? `sandbox-direct-${message.toPersonEmail}`,
      roomType: message.roomId ? 'group' : 'direct',
      ...(message.roomId ? {} : { toPersonEmail: message.toPersonEmail }),
      ...(message.text ? { text: message.text } : {}),
      ...(message.markdown ? { markdown: message.markdown } : {}),
      ...(message.file ? { files: [`${base}/files/${message.file.id}`] } : {}),
      personEmail: 'ce-toolkit-bot@webex.bot',
      created: message.created,
    };
  });

  // Delete a Message: the bot's own, gone from every list (204).
  app.delete<{ Params: { id: string } }>('/v1/messages/:id', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return unauthorized(reply);
    if (!state.remove(request.params.id)) return webexError(reply, 404, 'Message not found.');
    return reply.status(204).send();
  });

  app.get('/messages', async (request) => {
    const { toPersonEmail, roomId } = request.query as { toPersonEmail?: string; roomId?: string };
    return {
      items: state.messages
        .filter((message) => !toPersonEmail || message.toPersonEmail === toPersonEmail)
        .filter((message) => !roomId || message.roomId === roomId)
        .map(({ file, ...message }) => ({
          ...message,
          ...(file
            ? { file: { id: file.id, name: file.name, contentType: file.contentType, size: file.content.length } }
            : {}),
        })),
    };
  });

  app.get<{ Params: { id: string } }>('/files/:id', async (request, reply) => {
    const file = state.messages.find((message) => message.file?.id === request.params.id)?.file;
    if (!file) return reply.status(404).send({ message: 'File not found' });
    // Whatever type the uploader declared, the file is served as opaque bytes to download, never rendered.
    const name = file.name.replace(/[^\w.-]+/g, '_').slice(0, 120) || 'file';
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(file.content);
  });

  app.get('/', async (_request, reply) => {
    const rows = state.messages
      .map(
        (
          message,
        ) => `<tr><td>${escapeHtml(message.created)}</td><td>${escapeHtml(message.roomId ? `room ${message.roomId}` : message.toPersonEmail)}</td>
<td><pre>${escapeHtml(message.markdown ?? message.text ?? '')}</pre></td>
<td>${message.file ? `<a href="files/${escapeHtml(message.file.id)}">${escapeHtml(message.file.name)}</a> (${message.file.content.length} bytes)` : ''}</td></tr>`,
      )
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Webex sandbox: delivered messages',
          state.messages.length
            ? `<table><thead><tr><th>When</th><th>To</th><th>Message</th><th>File</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<p>No message delivered yet.</p>',
        ),
      );
  });
};
