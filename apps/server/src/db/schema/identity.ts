import type { Capability } from '@ce/contract';
import { bigserial, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jsonb } from './jsonb.js';

/**
 * Local accounts; emails are stored lower-cased. `locale` holds the role: the original product kept it
 * in its identity pool's `locale` attribute (spec section 6), single sign-on providers send it in that
 * claim by default (OIDC_ROLE_CLAIM), and no locale means the role User.
 */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name'),
  locale: text('locale'),
  passwordHash: text('password_hash').notNull(),
  mustChangePassword: boolean('must_change_password').notNull().default(false),
  disabled: boolean('disabled').notNull().default(false),
  isDemo: boolean('is_demo').notNull().default(false),
  /** `issuer|sub` of the single sign-on identity this account belongs to; such accounts have no usable password. */
  ssoSubject: text('sso_subject').unique(),
  /** A Super User allowed the next SSO sign-in with this email to take over this password account. */
  ssoLinkAllowed: boolean('sso_link_allowed').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/**
 * Server-side sessions. The cookie carries a random secret; only its SHA-256 is stored, so a
 * database dump does not hand out live sessions.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    /** Names the session in Settings without revealing the secret. */
    publicId: uuid('public_id').notNull().defaultRandom().unique(),
    /** `password` or `sso`; SSO sessions also end the provider's session at sign-out. */
    method: text('method').notNull().default('password'),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

/**
 * A sign-in that needs one more step (a new password). The cookie-less client holds the secret; only
 * its hash is stored, and it lives three minutes.
 */
export const authChallenges = pgTable('auth_challenges', {
  idHash: text('id_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** One-time password-reset codes: stored hashed, 15 minutes, single use, a few attempts. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('password_reset_codes_user_idx').on(table.userId)],
);

/** Failed sign-ins per key (`account:<email>` or `address:<ip>`), for growing delays and temporary locks. */
export const signInThrottle = pgTable('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  firstFailureAt: timestamp('first_failure_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/**
 * Security events (failed sign-ins, locks, resets); never a password or a code. A refusal repeated from one
 * address for one cause is one row per window, its `count` raised (`repeat_key` names the address, cause
 * and window; null for events written each time).
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    email: text('email'),
    userId: uuid('user_id'),
    ipAddress: text('ip_address'),
    detail: text('detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    count: integer('count').notNull().default(1),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    repeatKey: text('repeat_key'),
  },
  (table) => [
    index('security_events_created_idx').on(table.createdAt),
    uniqueIndex('security_events_repeat_key_idx').on(table.repeatKey),
  ],
);

/** Administrative actions: who did what to whom, when. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('audit_log_created_idx').on(table.createdAt)],
);

/**
 * Personal API tokens. Only the SHA-256 of the secret is stored (a database dump hands out no live token);
 * `capabilities` is the subset of the owner's the token may use. A token ends when it expires, when it is
 * revoked, or when its owner is disabled or loses a capability it carries (`revokedReason` says which).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    hint: text('hint').notNull(),
    capabilities: jsonb('capabilities').$type<Capability[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (table) => [index('api_tokens_user_idx').on(table.userId)],
);
