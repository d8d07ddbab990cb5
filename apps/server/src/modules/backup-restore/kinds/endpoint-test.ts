import { z } from 'zod';
import type { PlatformSession } from '@ce/platform-client';
import {
  isJson,
  namesField,
  objectField,
  split,
  strings,
  type BackupKindDescriptor,
  type Json,
  type ReadContext,
  type RestoreDescriptor,
} from './kind.js';

/**
 * What the two kinds of endpoint test (scheduled, dynamic) share: agents and labels by name in `config` (by
 * id in `server`), read from both lists at once; the platform changes which agents run one only by creating
 * it again.
 */
type EndpointTestKind = 'endpoint-scheduled-test' | 'endpoint-dynamic-test';
const ENDPOINT_TEST_SERVER_FIELDS = ['testId', 'createdDate', 'isSavedEvent'] as const;
const selectorShape = objectField({ endpointAgentLabels: namesField, agents: namesField });

/** The group's endpoint agents by id and name (read only when a test names agents). */
export async function endpointAgentNames(session: PlatformSession, aid: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for await (const agent of session.endpointAgents.list(aid)) names.set(agent.id, agent.name ?? agent.id);
  return names;
}

type EndpointTests = Awaited<ReturnType<typeof readEndpointTests>>;
const read = new WeakMap<ReadContext, Promise<EndpointTests>>();

/** Both lists, and the endpoint agents when a test names some: read once per group, for both kinds. */
async function readEndpointTests({ session, aid }: ReadContext) {
  const scheduled = await session.endpointTests.listScheduled(aid);
  const dynamic = await session.endpointTests.listDynamic(aid);
  const agents = [...scheduled, ...dynamic].some(
    (test) => test.agentSelectorConfig?.agentSelectorType === 'specific-agents',
  )
    ? await endpointAgentNames(session, aid)
    : new Map<string, string>();
  return { scheduled, dynamic, agents };
}

/** Reads the group's endpoint tests of one kind: labels and agents by name, the ids kept apart. */
async function readEndpointTestKind(context: ReadContext, kind: EndpointTestKind): Promise<void> {
  const once = read.get(context) ?? readEndpointTests(context);
  read.set(context, once);
  const lists = await once;
  for (const test of kind === 'endpoint-scheduled-test' ? lists.scheduled : lists.dynamic) {
    const parts = split(test, ENDPOINT_TEST_SERVER_FIELDS);
    const selector = test.agentSelectorConfig;
    if (selector) {
      const named = (ids: string[] | undefined, names: Map<string, string>) =>
        ids?.map((id) => names.get(id) ?? `#${id}`).sort();
      parts.config.agentSelectorConfig = {
        ...selector,
        ...(selector.endpointAgentLabels
          ? { endpointAgentLabels: named(selector.endpointAgentLabels, context.labelNames) }
          : {}),
        ...(selector.agents ? { agents: named(selector.agents, lists.agents) } : {}),
      };
      parts.server.agentSelectorConfig = selector;
    }
    const name = String(test.testName ?? test.testId);
    context.emit({ kind, key: name, name, ...parts });
  }
}

const selectorOf = (config: Json) => (isJson(config.agentSelectorConfig) ? config.agentSelectorConfig : {});

/** What the endpoint test POST takes (agents flat), and what their PATCH may change. */
export const ENDPOINT_CREATE = [
  'testName',
  'server',
  'port',
  'url',
  'interval',
  'protocol',
  'application',
  'isPrioritized',
  'networkMeasurements',
  'hasPing',
  'hasTraceroute',
  'targetResponseTime',
  'tcpProbeMode',
  'ipVersion',
  'agentSelectorType',
  'agents',
  'endpointAgentLabels',
  'maxMachines',
];
export const ENDPOINT_PATCH = [
  'testName',
  'interval',
  'protocol',
  'isEnabled',
  'tcpProbeMode',
  'server',
  'port',
  'url',
  'application',
];

/** How a restore plans and writes an endpoint test, but for the platform's calls (`variant`: its type, if any). */
function endpointTestRestore(variant: boolean, platform: RestoreDescriptor['platform']): RestoreDescriptor {
  return {
    phase: 1,
    /** A label the target will not have, or an agent it lacks, keeps the test out. */
    plan({ config, resolved }, { target, keysAfter, targetIds }) {
      const selector = selectorOf(config);
      const labelsAfter = keysAfter('endpoint-label');
      const labels = strings(selector.endpointAgentLabels).filter((name) => !labelsAfter.has(name));
      if (labels.length)
        return `No endpoint label ${labels.join(', ')} in ${target.accountGroupName}, nor in what is restored`;
      const agents = strings(selector.agents).filter((name) => !target.endpointAgents?.has(name));
      if (agents.length) return `No endpoint agent ${agents.join(', ')} in ${target.accountGroupName}`;
      const labelIds = targetIds('endpoint-label');
      for (const name of strings(selector.endpointAgentLabels))
        resolved.push({ kind: 'endpoint label', name, from: name, to: labelIds.get(name) ?? 'restored' });
      for (const name of strings(selector.agents))
        resolved.push({ kind: 'endpoint agent', name, from: name, to: target.endpointAgents?.get(name) ?? '' });
      return null;
    },
    updateProblem: (differences) =>
      differences.some((change) => change.path.startsWith('agentSelectorConfig'))
        ? 'The platform does not change which agents run an endpoint test: delete it there, then restore it'
        : null,
    // Requests name the agents flat, by the target's ids; labels by key, resolved when sent.
    write({ config }, target, ids) {
      const { agentSelectorConfig: _selector, type, ...body } = config;
      const { endpointAgentLabels, agents, ...selector } = selectorOf(config);
      return {
        ...(variant ? { variant: String(type) } : {}),
        body: {
          ...body,
          ...selector,
          ...(agents ? { agents: strings(agents).map((name) => target.endpointAgents?.get(name) ?? name) } : {}),
        },
        ...(endpointAgentLabels
          ? { labels: { keys: strings(endpointAgentLabels), known: Object.fromEntries(ids('endpoint-label')) } }
          : {}),
      };
    },
    send: ({ body, labels }, ids) => (labels ? { ...body, endpointAgentLabels: ids('endpoint-label', labels) } : body),
    nameOf: (body) => String(body.testName),
    undoesUpdate: true,
    platform,
  };
}

/** An endpoint test kind: its folder, the fields its configuration must have beside the agents, its calls. */
export function endpointTestKind<K extends EndpointTestKind>(
  kind: K,
  parts: { folder: string; shape: z.ZodRawShape; variant: boolean; platform: RestoreDescriptor['platform'] },
): BackupKindDescriptor<K> {
  return {
    kind,
    folder: parts.folder,
    serverFields: ENDPOINT_TEST_SERVER_FIELDS,
    configShape: z.looseObject({ ...parts.shape, agentSelectorConfig: selectorShape }),
    read: (context) => readEndpointTestKind(context, kind),
    restore: endpointTestRestore(parts.variant, parts.platform),
  };
}
