import { tagSchema } from '../schemas.js';
import { type Caller } from './caller.js';

export const tags = (caller: Caller) => ({
  list: async (aid?: string, signal?: AbortSignal) =>
    caller.list('tags', tagSchema, 'tags', 'tags', { aid, query: { expand: ['assignments'] }, signal }),
  create: (
    body: { key: string; value: string; objectType: string; color?: string; description?: string },
    aid?: string,
  ) => caller.request(tagSchema, 'tags', 'created tag', { method: 'POST', body, aid, idempotent: false }),
  assign: (tagId: string, assignments: { id: string; type: string }[], aid?: string) =>
    caller.http.call<unknown>(caller.auth, `tags/${encodeURIComponent(tagId)}/assign`, {
      method: 'POST',
      body: { assignments },
      aid,
    }),
  delete: (tagId: string, aid?: string) =>
    caller.http.call<void>(caller.auth, `tags/${encodeURIComponent(tagId)}`, { method: 'DELETE', aid }),
});
