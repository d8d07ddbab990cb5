import { z } from 'zod';

/** One platform operation as the API explorer lists it (read from the OpenAPI document at run time). */
export const apiParameterSchema = z.object({
  name: z.string(),
  in: z.enum(['path', 'query']),
  required: z.boolean(),
  description: z.string(),
  type: z.string(),
  isArray: z.boolean(),
  enum: z.array(z.string()),
});
export type ApiParameter = z.infer<typeof apiParameterSchema>;

export const apiOperationSchema = z.object({
  id: z.string(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string(),
  summary: z.string(),
  tag: z.string(),
  parameters: z.array(apiParameterSchema),
  hasBody: z.boolean(),
});
export type ApiOperation = z.infer<typeof apiOperationSchema>;

export const apiOperationsResponseSchema = z.object({
  source: z.string(),
  operations: z.array(apiOperationSchema),
});

export const explorerCallSchema = z.object({
  token: z.string().trim().min(1, 'OAuth token not provided').max(4096),
  operationId: z.string().min(1).max(200),
  pathParams: z.record(z.string(), z.string().max(512)).default({}),
  query: z.record(z.string(), z.string().max(2048)).default({}),
  body: z.unknown().optional(),
  /** Writes go only with this set (the page asks first). */
  confirm: z.boolean().default(false),
  /** Follow a paginated answer's `_links.next.href` instead of building the call. */
  nextHref: z.string().url().max(4096).optional(),
});
export type ExplorerCall = z.input<typeof explorerCallSchema>;

export const explorerAnswerSchema = z.object({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  durationMs: z.number(),
  body: z.unknown(),
  method: z.string(),
  url: z.string(),
  /** The call as curl, the token replaced by $TE_TOKEN. */
  curl: z.string(),
  nextHref: z.string().nullable(),
});
export type ExplorerAnswer = z.infer<typeof explorerAnswerSchema>;

export const EXPLORER_MESSAGES = {
  confirmWrite: 'Confirm the write before it is sent',
  writesNotAllowed: 'Your role may read through the API explorer, not write',
  unknownOperation: 'This operation is not in the API document',
  missingPathParameter: (name: string) => `Fill in ${name}`,
  dotPathParameter: (name: string) => `${name} cannot be '.' or '..'`,
} as const;
