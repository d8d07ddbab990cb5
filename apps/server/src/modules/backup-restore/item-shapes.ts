import { z } from 'zod';
import { ENDPOINT_SCHEDULED_TYPES, PLATFORM_API_TEST_TYPES } from '@ce/platform-client';
import type { BackupKind } from './archive.js';

/**
 * What an item's configuration must be for drift, the plan and the restore's writes to read it: the fields
 * they read, of the types they read them as. Every other field is kept as it is (restore sends it back).
 * An archive whose items differ is refused at upload with the field and what it must be.
 */
const NAMES = 'must be a list of names';
const names = z.array(z.string({ error: NAMES }), { error: NAMES }).optional();
const objects = (shape: z.ZodRawShape) =>
  z
    .array(z.looseObject(shape, { error: 'must be a list of objects' }), { error: 'must be a list of objects' })
    .optional();
const object = (shape: z.ZodRawShape) => z.looseObject(shape, { error: 'must be an object' }).optional();
const selector = object({ endpointAgentLabels: names, agents: names });

export const CONFIG_SHAPES: Record<BackupKind, z.ZodType> = {
  test: z.looseObject({ agents: names }),
  'alert-rule': z.looseObject({ tests: names }),
  'suppression-window': z.looseObject({ tests: names }),
  dashboard: z.looseObject({ widgets: objects({ filters: object({ TEST: names, AGENT: names }) }) }),
  tag: z.looseObject({ assignments: names, objectType: z.string({ error: 'must be text' }).optional() }),
  'endpoint-label': z.looseObject({}),
  // The type names the URL its writes go to.
  'endpoint-scheduled-test': z.looseObject({
    type: z.enum(ENDPOINT_SCHEDULED_TYPES, { error: `must be ${ENDPOINT_SCHEDULED_TYPES.join(' or ')}` }),
    agentSelectorConfig: selector,
  }),
  'endpoint-dynamic-test': z.looseObject({ agentSelectorConfig: selector }),
  reference: z.looseObject({}),
};

/** Why an item's configuration cannot be read, in words ("agents must be a list of names"); null when it can. */
export function configProblem(kind: BackupKind, config: Record<string, unknown>): string | null {
  const checked = CONFIG_SHAPES[kind].safeParse(config);
  if (checked.success) return null;
  const [issue] = checked.error.issues;
  const field = (issue?.path ?? []).filter((part) => typeof part !== 'number').join('.');
  return `${field} ${issue?.message ?? 'is not valid'}`.trim();
}

/** A test's key is `type: name`; its type names the URL its writes go to, so only a type the platform serves. */
export function testKeyProblem(key: string): string | null {
  const type = key.split(':')[0] ?? '';
  return (PLATFORM_API_TEST_TYPES as readonly string[]).includes(type) && key.startsWith(`${type}: `)
    ? null
    : `The backup lists a test of type "${type}", which is not a test type the platform knows.`;
}

/** Whether JSON text nests arrays and objects deeper than `limit`, read before it is parsed (parsing that is slow). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c)
        at++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** Whether a parsed value holds a NUL character in a key or a string (the database's text refuses it). */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
  return false;
}
