import { RECENT_TOKENS } from '@ce/contract';
import { readUserItem, writeUserItem } from './user-storage';

/** Separate lists, as the spec keeps them: one for bulk tests, one for the agent wizard (and one for alerts migration). */
export const TOKEN_LISTS = ['bulk-tests', 'agent-wizard', 'alerts-migration', 'backup-restore'] as const;
export type TokenList = (typeof TOKEN_LISTS)[number];
const itemName = (list: TokenList) => `recent-tokens.${list}`;

/**
 * The recently used tokens of a list, newest first, at most 5. They belong to the signed-in user and
 * are gone once the session ends (see lib/user-storage).
 */
export function recentTokens(list: TokenList, storage: Storage = localStorage): string[] {
  try {
    const parsed: unknown = JSON.parse(readUserItem(itemName(list), storage) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((item): item is string => typeof item === 'string').slice(0, RECENT_TOKENS.max)
      : [];
  } catch {
    return [];
  }
}

/** Puts `token` first (once), keeping at most 5. */
export function rememberToken(list: TokenList, token: string, storage: Storage = localStorage): string[] {
  const next = [token, ...recentTokens(list, storage).filter((item) => item !== token)].slice(0, RECENT_TOKENS.max);
  writeUserItem(itemName(list), JSON.stringify(next), storage);
  return next;
}

/** Takes `token` out of every list (a customer forgotten, or a token the platform refused): no tool offers it again. */
export function forgetToken(token: string, storage: Storage = localStorage): void {
  for (const list of TOKEN_LISTS) {
    const kept = recentTokens(list, storage);
    if (kept.includes(token))
      writeUserItem(itemName(list), JSON.stringify(kept.filter((item) => item !== token)), storage);
  }
}

/** What a chip shows: the last 8 characters. */
export const tokenChipLabel = (token: string) => `…${token.slice(-RECENT_TOKENS.visibleChars)}`;
