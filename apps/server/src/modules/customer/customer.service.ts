import { TARGET_TOKEN_REFUSED, type ReportAccountGroup, type TokenCheck } from '@ce/contract';
import { PlatformError, type PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import { tokenAbility, tokenRefusal } from './token-check.js';

/** The spec's words for a refused token (section 8); each tool's screen may show its own. */
export const INVALID_TOKEN_MESSAGE = 'Invalid OAuth token. Please check your token and try again.';

/** A platform failure while reading for the browser, as the API answers it. */
export function platformRefusal(error: unknown): unknown {
  if (!(error instanceof PlatformError)) return error;
  if (error.status === 401) return new AppError(401, 'invalid_platform_token', INVALID_TOKEN_MESSAGE);
  if (error.status === 403) return new AppError(403, 'platform_forbidden', error.message);
  return new AppError(502, 'platform_error', error.message);
}

/** A request's second organization's token refused: said apart, so the customer chosen in the header stays. */
const targetRefused = () => new AppError(401, 'invalid_target_token', TARGET_TOKEN_REFUSED);

/**
 * Reads on behalf of a customer's token, mapping platform failures to API errors; with `side: 'target'`, the reads
 * are made with a request's second organization's token, whose refusal is said apart.
 */
export async function readForCustomer<T>(work: () => Promise<T>, { side = 'customer' }: ScopeOptions = {}): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (side === 'target' && error instanceof PlatformError && error.status === 401) throw targetRefused();
    throw platformRefusal(error);
  }
}

export interface ScopeOptions {
  /** Whose token it is: the customer's (the default), or a request's second organization's (`target`). */
  side?: 'customer' | 'target';
}

export interface CustomerScope {
  organization: { id: string; name: string };
  /** The platform's name of each account group the request named. */
  accountGroupName(aid: string): string;
}

/**
 * What a customer's token sees: its account groups (every tool's first step), and the check that a
 * request's organization and account groups are the token's own, named as the platform names them.
 */
export class CustomerService {
  constructor(
    private readonly platform: PlatformClient,
    /** Told each organization's name: a person waiting for its budget is told whose it is. */
    private readonly names?: { learnName(organizationId: string, name: string): void },
  ) {}

  /**
   * Reads with a customer's token and a second organization's at once (a migration into another organization): a
   * refusal is told apart by asking the platform once more with the customer's token; when that one still works,
   * the second organization's was refused.
   */
  async readForTwo<T>(customerToken: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof PlatformError && error.status === 401) {
        const customerWorks = await this.platform
          .as({ token: customerToken })
          .accountGroups.list()
          .then(
            () => true,
            () => false,
          );
        if (customerWorks) throw targetRefused();
      }
      throw platformRefusal(error);
    }
  }

  /** The account groups the token can see; the token is used once and never stored. */
  accountGroups(token: string, options: ScopeOptions = {}): Promise<ReportAccountGroup[]> {
    return readForCustomer(() => this.readGroups(token), options);
  }

  /**
   * The switcher's check of a token (the customer chosen once for every tool): the account groups it sees, then
   * what it may do, proved by reads. A refusal says which it was: not a token of the platform, revoked or expired,
   * or refused for the organization. Nothing is written; the token is used for these reads only.
   */
  async checkToken(token: string): Promise<TokenCheck> {
    const accountGroups = await this.readGroups(token).catch((error: unknown) => {
      throw tokenRefusal(token, error) ?? platformRefusal(error);
    });
    // A token that sees nothing has nothing to prove (the switcher says so).
    if (accountGroups.length === 0)
      return { accountGroups, ability: { isOrgAdmin: false, canWrite: null, cannotRead: [], label: '', summary: '' } };
    return { accountGroups, ability: await tokenAbility(this.platform, token) };
  }

  private async readGroups(token: string): Promise<ReportAccountGroup[]> {
    const groups = (await this.platform.as({ token }).accountGroups.list()).map((group) => ({
      aid: group.aid,
      accountGroupName: group.accountGroupName,
      organizationName: group.organizationName ?? 'N/A',
      organizationId: group.orgId ?? group.organizationName ?? 'unknown',
    }));
    for (const group of groups)
      if (group.organizationName !== 'N/A') this.names?.learnName(group.organizationId, group.organizationName);
    return groups;
  }

  /**
   * The organization and account groups of a request as the platform names them: the browser says
   * which (ids), the token's own account groups say what they are called. An organization or an
   * account group the token cannot see is refused.
   */
  async scope(
    token: string,
    organizationId: string,
    aids: Iterable<string>,
    options: ScopeOptions = {},
  ): Promise<CustomerScope> {
    const visible = (await this.accountGroups(token, options)).filter(
      (group) => group.organizationId === organizationId,
    );
    const organizationName = visible[0]?.organizationName;
    if (organizationName === undefined)
      throw new AppError(400, 'unknown_organization', 'This token does not belong to the selected organization.');
    const names = new Map(visible.map((group) => [group.aid, group.accountGroupName]));
    const unknown = [...new Set(aids)].filter((aid) => !names.has(aid));
    if (unknown.length > 0)
      throw new AppError(
        400,
        'unknown_account_group',
        `This token cannot see the account group${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}.`,
      );
    return {
      organization: { id: organizationId, name: organizationName },
      accountGroupName: (aid) => names.get(aid) ?? aid,
    };
  }
}
