import { agentSchema } from '../schemas.js';
import { type Caller } from './caller.js';

export const agents = (caller: Caller) => ({
  list: async (
    options: {
      aid?: string;
      agentTypes?: ('cloud' | 'enterprise' | 'enterprise-cluster')[];
      expand?: string[];
      signal?: AbortSignal;
    } = {},
  ) =>
    caller.list('agents', agentSchema, 'agents', 'agents', {
      aid: options.aid,
      query: { agentTypes: options.agentTypes, expand: options.expand },
      signal: options.signal,
    }),
  get: (agentId: string, aid?: string, signal?: AbortSignal) =>
    caller.request(agentSchema, `agents/${encodeURIComponent(agentId)}`, 'agent', { aid, signal }),
  delete: (agentId: string, aid?: string, signal?: AbortSignal) =>
    caller.http.call<void>(caller.auth, `agents/${encodeURIComponent(agentId)}`, { method: 'DELETE', aid, signal }),
});
