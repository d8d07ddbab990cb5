import {
  API_TOKEN_MESSAGES,
  can,
  REPORT_KINDS,
  reportKindSchema,
  userMay,
  type ReportKind,
  type SessionUser,
} from '@ce/contract';
import { AppError } from '../../core/errors.js';

// Which report kinds a caller may read and hear of: a session all of them, a personal API token those whose
// capability it carries.

const KINDS = reportKindSchema.options;

/**
 * The report kinds a caller reads: a session all of its own (whatever its role holds now), a personal API
 * token those whose capability it carries, as Settings names them. A token carrying none of those its role
 * holds is refused, naming them.
 */
export function readableKinds(user: SessionUser): readonly ReportKind[] {
  if (!user.apiToken) return KINDS;
  const readable = KINDS.filter((kind) => userMay(user, REPORT_KINDS[kind].capability));
  const held = [...new Set(KINDS.map((kind) => REPORT_KINDS[kind].capability))].filter((capability) =>
    can(user.role, capability),
  );
  if (readable.length === 0 && held.length > 0)
    throw new AppError(403, 'forbidden', API_TOKEN_MESSAGES.notCarried(held));
  return readable;
}

/**
 * The report kinds a caller hears of (notifications, work under way): a session all of its own, a personal API
 * token those whose capability it carries, as its lists show them; none, rather than a refusal, for a token
 * carrying no report kind's capability.
 */
export function notifiedKinds(user: SessionUser): readonly ReportKind[] {
  return user.apiToken ? KINDS.filter((kind) => userMay(user, REPORT_KINDS[kind].capability)) : KINDS;
}
