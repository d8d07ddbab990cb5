/** What other modules may use of the identity module: recording security events. */
import type { IdentityRepository } from './identity.repository.js';

export type { SecurityEventType } from './identity.repository.js';

/** Security events as other modules write them (never a secret in them). */
export type SecurityEvents = Pick<IdentityRepository, 'recordEvent'>;
