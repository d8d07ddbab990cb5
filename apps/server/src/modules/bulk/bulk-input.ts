import { z } from 'zod';
import {
  agentToDeleteSchema,
  bulkAccountGroupSchema,
  bulkLabelSchema,
  conflictChoice,
  conflictChoiceSchema,
  inviteeSchema,
  labelTargetSchema,
  testTemplateSchema,
  type CreateBulkRun,
} from '@ce/contract';

const groups = z.array(bulkAccountGroupSchema);

/**
 * A run's input as stored (jsonb): the validated request without the token, the organization or the
 * typed confirmation, and with the account groups it touches. Read back through this union by kind.
 */
export const storedInputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('tests'),
    accountGroups: groups,
    templates: z.array(testTemplateSchema),
    /** Runs stored before the choice had a name keep `skipExisting`. */
    onConflict: conflictChoiceSchema.optional(),
    skipExisting: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('undo-tests'), accountGroups: groups, sourceRunId: z.string() }),
  z.object({ kind: z.literal('agents'), accountGroups: groups, agents: z.array(agentToDeleteSchema) }),
  z.object({
    kind: z.literal('labels'),
    accountGroups: groups,
    tag: bulkLabelSchema,
    targets: z.array(labelTargetSchema),
  }),
  z.object({
    kind: z.literal('users'),
    accountGroups: groups,
    roleId: z.string(),
    invitees: z.array(inviteeSchema),
  }),
]);
export type StoredInput = z.infer<typeof storedInputSchema>;

const jsonObject = z.record(z.string(), z.unknown());

/** Reads a run's kind and jsonb input back into one checked value. */
export function storedInput(run: { kind: string; input: unknown }): StoredInput {
  return storedInputSchema.parse({ ...jsonObject.parse(run.input), kind: run.kind });
}

function uniqueGroups(rows: z.infer<typeof bulkAccountGroupSchema>[]) {
  const byAid = new Map(rows.map((row) => [row.aid, { aid: row.aid, accountGroupName: row.accountGroupName }]));
  return [...byAid.values()];
}

/** What is stored of a request (the kind has its own column). */
export function toStoredInput(request: CreateBulkRun): Record<string, unknown> {
  switch (request.kind) {
    case 'tests':
      return {
        accountGroups: request.accountGroups,
        templates: request.templates,
        onConflict: conflictChoice(request),
      };
    case 'agents':
      return { accountGroups: uniqueGroups(request.agents), agents: request.agents };
    case 'labels':
      return { accountGroups: uniqueGroups(request.targets), tag: request.tag, targets: request.targets };
    case 'users':
      return { accountGroups: request.accountGroups, roleId: request.roleId, invitees: request.invitees };
  }
}
