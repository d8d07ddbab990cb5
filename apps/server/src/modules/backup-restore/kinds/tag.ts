import { z } from 'zod';
import {
  dropMissingTests,
  namesField,
  objects,
  sendWithTests,
  split,
  strings,
  writable,
  type BackupKindDescriptor,
} from './kind.js';

/**
 * Tags, known by object type, key and value: what they are assigned to by name in `config` (tests by key),
 * by id in `server`. Assignments add up on the platform: an update assigns what the backup had, and its undo
 * takes nothing away.
 */
/** A tag's body as a creation takes it: the fields it requires, the others along as given. */
const tagBody = z.looseObject({ key: z.string(), value: z.string(), objectType: z.string() });

export const tag: BackupKindDescriptor<'tag'> = {
  kind: 'tag',
  folder: 'tags',
  serverFields: ['id'],
  configShape: z.looseObject({ assignments: namesField, objectType: z.string({ error: 'must be text' }).optional() }),
  async read({ session, aid, emit, testKeys }) {
    for (const listed of await session.tags.list(aid)) {
      const { assignments, ...rest } = listed;
      const parts = split(rest, tag.serverFields);
      const assigned = objects(assignments);
      parts.config.assignments = assigned
        .map((assignment) =>
          assignment.type === 'test'
            ? (testKeys.get(String(assignment.id)) ?? `test ${String(assignment.id)}`)
            : `${String(assignment.type)} ${String(assignment.id)}`,
        )
        .sort();
      parts.server.assignments = assigned;
      const name = `${String(rest.key ?? '')}: ${String(rest.value ?? '')}`;
      emit({ kind: 'tag', key: `${String(rest.objectType ?? 'test')}: ${name}`, name, ...parts });
    }
  },
  restore: {
    phase: 1,
    /** A tag of tests keeps the tests the target will have. */
    plan(step, context) {
      if (step.config.objectType === 'test') dropMissingTests(step, 'assignments', context);
      return null;
    },
    write: ({ config }, _target, ids) => {
      const { assignments, ...body } = config;
      return {
        body,
        tests: { field: 'assignments', keys: strings(assignments), known: Object.fromEntries(ids('test')) },
      };
    },
    send: sendWithTests,
    nameOf: (body) => `${String(body.key)}: ${String(body.value)}`,
    undoesUpdate: false,
    platform: {
      create: async (session, _target, body, aid) => {
        const { assignments, ...created } = writable(tagBody, body);
        const { id } = await session.tags.create(created, aid);
        const ids = strings(assignments);
        if (ids.length)
          await session.tags.assign(
            id,
            ids.map((assigned) => ({ id: assigned, type: created.objectType })),
            aid,
          );
        return id;
      },
      // Assignments add up on the platform: an update assigns the tests the backup had.
      update: async (session, _target, id, body, aid) => {
        const ids = strings(body.assignments);
        if (ids.length)
          await session.tags.assign(
            id,
            ids.map((testId) => ({ id: testId, type: String(body.objectType ?? 'test') })),
            aid,
          );
      },
      delete: (session, _target, id, aid) => session.tags.delete(id, aid),
      list: async (session, _target, aid) =>
        (await session.tags.list(aid)).map((found) => ({
          id: found.id,
          name: `${String(found.key)}: ${String(found.value)}`,
        })),
    },
  },
};
