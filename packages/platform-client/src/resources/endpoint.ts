import { endpointAgentSchema, endpointDynamicTestSchema, endpointLabelSchema, endpointTestSchema } from '../schemas.js';
import { type Caller } from './caller.js';

export const endpointAgents = (caller: Caller) => ({
  list: (aid?: string, signal?: AbortSignal) =>
    caller.paginate('endpoint/agents', 'agents', endpointAgentSchema, { aid, signal }),
});

export const endpointTests = (caller: Caller) => ({
  listScheduled: async (aid?: string, signal?: AbortSignal) =>
    caller.list('tests', endpointTestSchema, 'endpoint/tests/scheduled-tests', 'endpoint tests', {
      aid,
      signal,
    }),
  /** Dynamic tests follow an application (Webex, Zoom, Microsoft Teams) wherever its users are. */
  listDynamic: async (aid?: string, signal?: AbortSignal) =>
    caller.list(
      'tests',
      endpointDynamicTestSchema,
      'endpoint/tests/dynamic-tests/agent-to-server',
      'dynamic endpoint tests',
      {
        aid,
        signal,
      },
    ),
});

export const endpointLabels = (caller: Caller) => ({
  /** Labels with their filters. */
  list: (aid?: string, signal?: AbortSignal) =>
    caller.paginate('endpoint/labels', 'labels', endpointLabelSchema, { aid, query: { expand: ['filters'] }, signal }),
});
