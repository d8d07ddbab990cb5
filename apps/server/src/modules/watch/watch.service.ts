import {
  can,
  roleFromLocale,
  userMay,
  WATCH_MESSAGES,
  WATCH_PAUSE_REASONS,
  watchRunsSchema,
  watchScheduleAnswerSchema,
  type Capability,
  type Role,
  type CreateWatch,
  type SessionUser,
  type StoreWatchToken,
  type Watch,
  type WatchChannel,
  type WatchConsent,
  type WatchPauseReason,
  type WatchRuns,
  type WatchSettings,
} from '@ce/contract';
import { requireCapability } from '../../core/access.js';
import { AppError } from '../../core/errors.js';
import type { SealedTokens } from '../../core/sealed-tokens.js';
import type { AuditLog } from '../audit/index.js';
import type { CustomerService } from '../customer/customer.service.js';
import type { UserRow } from '../users/index.js';
import { nextRunAfter } from './schedule.js';
import { roomRefusal, toApi, type RoomMembership } from './watch-api.js';
import { requirePackWithHealth } from './watch-review-duty.js';
import type { WatchRepository, WatchRow, WatchWithPeople } from './watch.repository.js';

const DAY_MS = 86_400_000;

/** The capabilities a watch needs, by what it runs: the tools' own (the health check's, the backup's). */
export const CAPABILITIES_OF: Record<WatchRuns, Capability[]> = {
  health: ['healthCheck'],
  backup: ['tools'],
  both: ['healthCheck', 'tools'],
};

/** Whether a role holds every capability of what a watch runs. */
const roleRuns = (role: Role, watch: WatchRow): boolean =>
  CAPABILITIES_OF[watchRunsSchema.parse(watch.runs)].every((capability) => can(role, capability));

function refusal(capability: Capability): string {
  return capability === 'healthCheck'
    ? 'Your role cannot run the health check a watch runs.'
    : 'Your role cannot make the backups a watch makes.';
}

export interface WatchDependencies {
  repository: WatchRepository;
  tokens: SealedTokens;
  customer: CustomerService;
  audit: AuditLog;
  /** The longest a token may be stored, in days (WATCH_TOKEN_MAX_DAYS). */
  tokenMaxDays: number;
  clock: () => Date;
  /** Ends a watch's unfinished runs and their parts (their leases taken, their token copies erased). */
  cancelRuns?: (watchId: string, reason: string) => Promise<number>;
  /** Tells the owner that a watch's token was erased and why (in Webex), unless they did it themselves. */
  tellOwner?: (watch: WatchRow, reason: string) => Promise<void>;
  /** Watches one user may keep and one organization may have (WATCH_MAX_PER_USER, WATCH_MAX_PER_ORGANIZATION). */
  caps: { perUser: number; perOrganization: number };
  /** Whether a person is a member of a Webex room (Webex's memberships); absent without Webex, where nothing is sent. */
  roomMembership?: RoomMembership;
}

/**
 * Account Watch (decision 0031): a user's watches over customer organizations, and the customer's token each keeps
 * with consent. Owners manage their own, Super Users everyone's; the token is never answered back.
 */
export class WatchService {
  constructor(private readonly deps: WatchDependencies) {}

  async create(user: SessionUser, input: CreateWatch): Promise<Watch> {
    this.requireRuns(user, input.runs);
    requirePackWithHealth(input.runs, input.monthlyReviewPack ?? false);
    const expiresAt = this.expiry(input.consent);
    await this.requireRoom(input.channel, user.email);
    const scope = await this.deps.customer.scope(
      input.token,
      input.organization.id,
      input.accountGroups.map((group) => group.aid),
    );
    const now = this.deps.clock();
    const inserted = await this.deps.repository.insert(
      {
        userId: user.id,
        organizationId: scope.organization.id,
        organizationName: scope.organization.name,
        accountGroups: input.accountGroups.map(({ aid }) => ({ aid, accountGroupName: scope.accountGroupName(aid) })),
        runs: input.runs,
        schedule: input.schedule,
        channel: input.channel,
        speakWhen: input.speakWhen,
        monthlyReviewPack: input.monthlyReviewPack ?? false,
        status: 'active',
        nextRunAt: nextRunAfter(input.schedule, now),
        ...this.consentColumns(user, input.token, input.consent, now, expiresAt),
      },
      (tx) => this.deps.tokens.seal(input.token, tx),
      this.deps.caps,
    );
    if ('refused' in inserted)
      throw inserted.refused === 'user'
        ? new AppError(409, 'too_many_watches', WATCH_MESSAGES.tooManyOfUser(this.deps.caps.perUser))
        : new AppError(
            409,
            'too_many_watches',
            WATCH_MESSAGES.tooManyOfOrganization(this.deps.caps.perOrganization, scope.organization.name),
          );
    const row = inserted;
    await this.deps.audit.record(user, 'watch.created', scope.organization.name, { watchId: row.id });
    await this.auditToken(user, 'watch.token-stored', row, input.consent);
    return this.get(user, row.id);
  }

  async list(user: SessionUser, everyone: boolean): Promise<Watch[]> {
    if (everyone) requireCapability(user, 'seeAllRuns', 'Only Super Users see everyone’s watches.');
    const rows = await this.deps.repository.list(everyone ? undefined : user.id);
    // A personal API token sees the watches whose runs it carries the capabilities of.
    return rows.filter((row) => this.mayUse(user, row.watch)).map((row) => toApi(row));
  }

  async get(user: SessionUser, id: string): Promise<Watch> {
    return toApi(await this.visible(user, id));
  }

  /** Edits what a watch does; new account groups are checked against its stored token. */
  async update(user: SessionUser, id: string, settings: WatchSettings): Promise<Watch> {
    const found = await this.visible(user, id);
    const { watch } = found;
    this.requireRuns(user, settings.runs);
    const monthlyReviewPack = settings.monthlyReviewPack ?? watch.monthlyReviewPack;
    requirePackWithHealth(settings.runs, monthlyReviewPack);
    // A Super User's edit cannot make a watch run what its owner's role does not, nor speak in a room its owner is not in.
    this.requireOwnerMay({ ...found, watch: { ...watch, runs: settings.runs } });
    await this.requireRoom(settings.channel, found.owner.email);
    const known = new Set(watch.accountGroups.map((group) => group.aid));
    let accountGroups = settings.accountGroups.filter((group) => known.has(group.aid));
    if (accountGroups.length < settings.accountGroups.length) {
      // Past its consent the token is not used, even before the minute's sweep erases it: it goes now, as a run's would.
      if (watch.tokenId && (!watch.tokenExpiresAt || watch.tokenExpiresAt <= this.deps.clock())) {
        await this.stop(watch, 'expired', user);
        throw new AppError(409, 'consent_expired', WATCH_MESSAGES.consentExpired);
      }
      const token = await this.deps.tokens.open(watch.tokenId);
      if (!token) throw new AppError(409, 'no_token', WATCH_MESSAGES.noToken);
      const scope = await this.refusedStops(watch, () =>
        this.deps.customer.scope(
          token,
          watch.organizationId,
          settings.accountGroups.map((group) => group.aid),
        ),
      );
      accountGroups = settings.accountGroups.map(({ aid }) => ({ aid, accountGroupName: scope.accountGroupName(aid) }));
    } else {
      const names = new Map(watch.accountGroups.map((group) => [group.aid, group.accountGroupName]));
      accountGroups = accountGroups.map(({ aid }) => ({ aid, accountGroupName: names.get(aid) ?? aid }));
    }
    const { expectedUpdatedAt, ...kept } = settings;
    const expected = expectedUpdatedAt ? new Date(expectedUpdatedAt) : watch.updatedAt;
    const changes = { ...kept, accountGroups, monthlyReviewPack };
    if (
      !(await this.deps.repository.updateSettings(
        id,
        expected,
        changes,
        nextRunAfter(kept.schedule, this.deps.clock()),
      ))
    )
      throw new AppError(409, 'watch_changed', WATCH_MESSAGES.changedMeanwhile);
    await this.deps.audit.record(user, 'watch.changed', watch.organizationName, { watchId: id });
    return this.get(user, id);
  }

  async pause(user: SessionUser, id: string): Promise<Watch> {
    const { watch } = await this.visible(user, id);
    if (watch.status === 'active') {
      await this.deps.repository.update(id, { status: 'paused', pausedReason: 'paused', nextRunAt: null });
      await this.deps.audit.record(user, 'watch.paused', watch.organizationName, { watchId: id });
    }
    return this.get(user, id);
  }

  /** Resumes a watch that holds an unexpired token; its next run is computed from now. */
  async resume(user: SessionUser, id: string): Promise<Watch> {
    const found = await this.visible(user, id);
    const { watch } = found;
    this.requireRuns(user, watchRunsSchema.parse(watch.runs));
    this.requireOwnerMay(found);
    const now = this.deps.clock();
    if (!watch.tokenId || !watch.tokenExpiresAt || watch.tokenExpiresAt <= now)
      throw new AppError(409, 'no_token', WATCH_MESSAGES.noToken);
    if (watch.status === 'paused') {
      await this.deps.repository.update(id, {
        status: 'active',
        pausedReason: null,
        nextRunAt: nextRunAfter(watchScheduleAnswerSchema.parse(watch.schedule), now),
      });
      await this.deps.audit.record(user, 'watch.resumed', watch.organizationName, { watchId: id });
    }
    return this.get(user, id);
  }

  /** The watch a caller may run now: visible to them, active with a token, and its runs within their role's. */
  async runnable(user: SessionUser, id: string): Promise<WatchRow> {
    const found = await this.visible(user, id);
    this.requireRuns(user, watchRunsSchema.parse(found.watch.runs));
    this.requireOwnerMay(found);
    if (found.watch.status !== 'active' || !found.watch.tokenId)
      throw new AppError(409, 'not_active', WATCH_MESSAGES.notActive);
    // The consent's expiry is checked before any run, not only by the scheduler's minute: past it, the token goes.
    if (!found.watch.tokenExpiresAt || found.watch.tokenExpiresAt <= this.deps.clock()) {
      await this.stop(found.watch, 'expired', user);
      throw new AppError(409, 'consent_expired', WATCH_MESSAGES.consentExpired);
    }
    return found.watch;
  }

  /** A watch a caller sees (its owner, or a Super User): its runs are listed to them. */
  async visibleRow(user: SessionUser, id: string): Promise<WatchRow> {
    return (await this.visible(user, id)).watch;
  }

  /** The watch's next due time after `after`, by its schedule. */
  nextRun(watch: WatchRow, after: Date): Date {
    return nextRunAfter(watchScheduleAnswerSchema.parse(watch.schedule), after);
  }

  async delete(user: SessionUser, id: string): Promise<void> {
    const { watch } = await this.visible(user, id);
    await this.deps.cancelRuns?.(id, 'The watch was deleted.');
    await this.deps.repository.delete(id, (tx, tokenId) => this.deps.tokens.erase(tokenId, tx));
    await this.deps.audit.record(user, 'watch.deleted', watch.organizationName, { watchId: id });
  }

  /**
   * Stores a new token with a new consent (after a revocation, an expiry or a refusal, or to replace it early):
   * checked against the watch's organization and account groups; a watch paused for want of a token resumes.
   */
  async storeToken(user: SessionUser, id: string, input: StoreWatchToken): Promise<Watch> {
    const found = await this.visible(user, id);
    const { watch } = found;
    this.requireRuns(user, watchRunsSchema.parse(watch.runs));
    this.requireOwnerMay(found);
    const expiresAt = this.expiry(input.consent);
    await this.deps.customer.scope(
      input.token,
      watch.organizationId,
      watch.accountGroups.map((group) => group.aid),
    );
    const now = this.deps.clock();
    const resumes = watch.status === 'paused' && watch.pausedReason !== 'paused';
    const stored = await this.deps.repository.replaceToken(
      id,
      watch.tokenId,
      {
        ...this.consentColumns(user, input.token, input.consent, now, expiresAt),
        ...(resumes
          ? {
              status: 'active',
              pausedReason: null,
              nextRunAt: nextRunAfter(watchScheduleAnswerSchema.parse(watch.schedule), now),
            }
          : {}),
      },
      (tx) => this.deps.tokens.seal(input.token, tx),
      (tx, tokenId) => this.deps.tokens.erase(tokenId, tx),
    );
    if (!stored) throw new AppError(409, 'conflict', 'The watch changed meanwhile: try again.');
    await this.auditToken(user, 'watch.token-stored', watch, input.consent);
    return this.get(user, id);
  }

  /** The owner or a Super User revokes the stored token: erased now, and the watch paused until a new one. */
  async revokeToken(user: SessionUser, id: string): Promise<Watch> {
    const { watch } = await this.visible(user, id);
    if (watch.tokenId) await this.stop(watch, 'revoked', user);
    return this.get(user, id);
  }

  /**
   * Pauses a watch and erases its token, for a reason that ends the consent (revoked, expired, refused by the
   * platform, owner deactivated, key retired); audited. False when another caller did it first.
   */
  async stop(watch: WatchRow, reason: Exclude<WatchPauseReason, 'paused'>, actor?: SessionUser): Promise<boolean> {
    const stopped = await this.deps.repository.replaceToken(
      watch.id,
      watch.tokenId,
      { status: 'paused', pausedReason: reason, nextRunAt: null },
      null,
      (tx, tokenId) => this.deps.tokens.erase(tokenId, tx),
    );
    if (stopped) {
      // What runs now with a copy of the token stops too: its consent ended.
      await this.deps.cancelRuns?.(watch.id, WATCH_PAUSE_REASONS[reason]);
      await this.deps.audit.record(
        actor ?? { id: null, email: 'system' },
        'watch.token-erased',
        watch.organizationName,
        { watchId: watch.id, reason },
      );
      if (actor?.id !== watch.userId) await this.deps.tellOwner?.(watch, WATCH_PAUSE_REASONS[reason]);
    }
    return stopped;
  }

  /**
   * An account changed: deactivated, its watches stop and their tokens go, paused or not; a role that no longer
   * runs what a watch runs stops that watch.
   */
  async accountChanged(account: UserRow): Promise<void> {
    const role = roleFromLocale(account.locale);
    for (const watch of await this.deps.repository.liveOf(account.id)) {
      if (account.disabled) await this.stop(watch, 'deactivated');
      else if (!roleRuns(role, watch)) await this.stop(watch, 'capabilityLost');
    }
  }

  /** Tokens past their consent's expiry go, and their watches pause (the scheduler asks every minute). */
  async expire(): Promise<number> {
    let count = 0;
    for (const watch of await this.deps.repository.expired(this.deps.clock()))
      if (await this.stop(watch, 'expired')) count++;
    return count;
  }

  private async visible(user: SessionUser, id: string): Promise<WatchWithPeople> {
    const found = await this.deps.repository.find(id);
    if (!found || (found.watch.userId !== user.id && !userMay(user, 'seeAllRuns')))
      throw new AppError(404, 'not_found', WATCH_MESSAGES.notFound);
    if (user.apiToken) this.requireRuns(user, watchRunsSchema.parse(found.watch.runs));
    return found;
  }

  /** Whether a caller (a personal API token within what it carries) may use a watch of these runs. */
  private mayUse(user: SessionUser, watch: WatchRow): boolean {
    return CAPABILITIES_OF[watchRunsSchema.parse(watch.runs)].every((capability) => userMay(user, capability));
  }

  /** A disabled owner's watch, or one whose owner's role no longer runs it, neither resumes nor takes a token. */
  private requireOwnerMay({ watch, ownerAccount }: WatchWithPeople): void {
    const role = roleFromLocale(ownerAccount.locale);
    if (ownerAccount.disabled) throw new AppError(409, 'owner_disabled', WATCH_PAUSE_REASONS.deactivated);
    if (!roleRuns(role, watch)) throw new AppError(409, 'owner_cannot', WATCH_PAUSE_REASONS.capabilityLost);
  }

  /** A platform call with the stored token: a 401 (revoked or expired at the customer) stops the watch first. */
  private async refusedStops<T>(watch: WatchRow, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_platform_token') await this.stop(watch, 'refused');
      throw error;
    }
  }

  /** A room channel only with its owner a member of the room (Webex's memberships); refused in words otherwise. */
  private async requireRoom(channel: WatchChannel, ownerEmail: string): Promise<void> {
    const refused = await roomRefusal(this.deps.roomMembership, channel, ownerEmail);
    if (refused === null) return;
    const status = refused === WATCH_MESSAGES.roomNotChecked ? 503 : 400;
    throw new AppError(status, status === 503 ? 'webex_unavailable' : 'room_refused', refused, [
      { path: 'channel.roomId', message: refused },
    ]);
  }

  private requireRuns(user: SessionUser, runs: WatchRuns): void {
    for (const capability of CAPABILITIES_OF[runs]) requireCapability(user, capability, refusal(capability));
  }

  private expiry(consent: WatchConsent): Date {
    if (consent.days > this.deps.tokenMaxDays)
      throw new AppError(400, 'invalid_consent', WATCH_MESSAGES.expiryTooLong(this.deps.tokenMaxDays), [
        { path: 'consent.days', message: WATCH_MESSAGES.expiryTooLong(this.deps.tokenMaxDays) },
      ]);
    return new Date(this.deps.clock().getTime() + consent.days * DAY_MS);
  }

  private consentColumns(user: SessionUser, token: string, consent: WatchConsent, now: Date, expiresAt: Date) {
    return {
      tokenLast4: token.slice(-4),
      tokenStoredAt: now,
      tokenStoredBy: user.id,
      consentContactName: consent.contactName,
      consentContactEmail: consent.contactEmail,
      tokenExpiresAt: expiresAt,
    };
  }

  private async auditToken(user: SessionUser, action: string, watch: WatchRow, consent: WatchConsent) {
    await this.deps.audit.record(user, action, watch.organizationName, {
      watchId: watch.id,
      contact: consent.contactEmail,
      days: consent.days,
    });
  }
}
