import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import {
  ALERTS_MIGRATION_MESSAGES,
  MIGRATION_TARGET_LIMIT,
  migrationOptionsSchema,
  migrationRequestSchema,
  migrationSourceRequestSchema,
  type MigrationOptions,
} from '@ce/contract';

/**
 * The alerts migration's form, over the contract's schemas: the source group, the rules chosen, the
 * targets (groups of the source's organization, or of another one), and the options. The tokens and
 * organizations come from the token steps (useCustomer), the conflicts' decisions from the plan.
 */
export const migrationFormSchema = z.object({
  sourceAid: migrationSourceRequestSchema.shape.aid,
  ruleIds: migrationRequestSchema.shape.ruleIds,
  elsewhere: z.boolean(),
  targets: z
    .array(z.string())
    .min(1, ALERTS_MIGRATION_MESSAGES.targetsRequired)
    .max(MIGRATION_TARGET_LIMIT, `At most ${MIGRATION_TARGET_LIMIT} target account groups`),
  options: migrationOptionsSchema,
});
export type MigrationForm = z.output<typeof migrationFormSchema>;
export type MigrationFormInput = z.input<typeof migrationFormSchema>;
/** The form as its steps get it. */
export type MigrationFormApi = UseFormReturn<MigrationFormInput, unknown, MigrationForm>;

/** The contract's defaults: copy, ask about each conflict, keep rules without tests, nothing else. */
export const DEFAULT_OPTIONS: MigrationOptions = migrationOptionsSchema.parse({});

export const MIGRATION_DEFAULTS: MigrationForm = {
  sourceAid: '',
  ruleIds: [],
  elsewhere: false,
  targets: [],
  options: DEFAULT_OPTIONS,
};
