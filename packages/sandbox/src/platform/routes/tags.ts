import type { FastifyInstance } from 'fastify';
import { problem, overLimit, queryOf, list } from './http.js';
import type { RouteContext } from './context.js';

/** Tags and their assignments. */
export function tagRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  app.get('/tags', async (request, reply) => {
    const { group, serializer } = caller(request);
    const expand = list(queryOf(request).expand).includes('assignments');
    const tags = state.world.tags.filter((tag) => tag.aid === group.aid);
    return hal(reply).send({
      tags: tags.map(({ assignments, ...tag }) => ({
        ...tag,
        aid: Number(tag.aid),
        type: 'static',
        accessType: 'all',
        builtIn: false,
        ...(expand ? { assignments } : {}),
      })),
      _links: { self: serializer.link('/tags') },
    });
  });

  app.post('/tags', async (request, reply) => {
    const { group, serializer } = caller(request);
    const full = overLimit(
      reply,
      state.world.tags.filter((item) => item.aid === group.aid).length,
      'tags',
      'account group',
    );
    if (full) return full;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const errors = [];
    for (const field of ['key', 'value', 'objectType']) {
      if (typeof body[field] !== 'string' || !String(body[field]).trim())
        errors.push({ code: 'REQUIRED', field, message: `${field} is required` });
    }
    if (errors.length)
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);
    const tag = {
      id: crypto.randomUUID(),
      aid: group.aid,
      key: String(body.key),
      value: String(body.value),
      objectType: body.objectType as 'test',
      color: typeof body.color === 'string' ? body.color : '#1f77b4',
      description: typeof body.description === 'string' ? body.description : '',
      createDate: new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      assignments: [] as { id: string; type: string }[],
    };
    state.world.tags.push(tag);
    reply.header('Location', serializer.link(`/tags/${tag.id}`).href);
    const { assignments: _assignments, ...rest } = tag;
    return hal(reply)
      .status(201)
      .send({ ...rest, aid: Number(rest.aid), type: 'static', accessType: 'all', builtIn: false });
  });

  app.post<{ Params: { id: string } }>('/tags/:id/assign', async (request, reply) => {
    const { group } = caller(request);
    const tag = state.world.tags.find((candidate) => candidate.id === request.params.id && candidate.aid === group.aid);
    if (!tag) return problem(reply, 404, 'Not Found', `Tag ${request.params.id} not found`);
    const body = (request.body ?? {}) as { assignments?: { id?: unknown; type?: unknown }[] };
    const assignments = Array.isArray(body.assignments) ? body.assignments : [];
    const unknown = assignments.filter(
      (assignment) => !state.world.tests.some((test) => test.testId === assignment.id && test.aid === group.aid),
    );
    if (assignments.length === 0 || unknown.length > 0) {
      return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, [
        {
          code: 'INVALID',
          field: 'assignments',
          message: unknown.length
            ? `unknown objects: ${unknown.map((item) => String(item.id)).join(', ')}`
            : 'assignments are required',
        },
      ]);
    }
    for (const assignment of assignments) {
      if (!tag.assignments.some((existing) => existing.id === assignment.id))
        tag.assignments.push({ id: String(assignment.id), type: String(assignment.type ?? 'test') });
    }
    // 207 Multi-Status, as the document says for tag assignment.
    return hal(reply)
      .status(207)
      .send({
        tagId: tag.id,
        assignments: tag.assignments,
        _links: { self: caller(request).serializer.link(`/tags/${tag.id}`) },
      });
  });

  app.delete<{ Params: { id: string } }>('/tags/:id', async (request, reply) => {
    const { group } = caller(request);
    const index = state.world.tags.findIndex((tag) => tag.id === request.params.id && tag.aid === group.aid);
    if (index < 0) return problem(reply, 404, 'Not Found', `Tag ${request.params.id} not found`);
    state.world.tags.splice(index, 1);
    return reply.status(204).send();
  });
}
