import { RECENT_TOKENS } from '@ce/contract';

/** Separate lists, as the spec keeps them: one for bulk tests, one for the agent wizard. */
export type TokenList = 'bulk-tests' | 'agent-wizard';
const storageKey = (list: TokenList) => `ce.recent-tokens.${list}`;

/** The recently used tokens of a list, newest first, at most 5. Local storage is cleared at sign-out. */
export function recentTokens(list: TokenList, storage: Storage = localStorage): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(storageKey(list)) ?? '[]');
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
  storage.setItem(storageKey(list), JSON.stringify(next));
  return next;
}

/** What a chip shows: the last 8 characters. */
export const tokenChipLabel = (token: string) => `…${token.slice(-RECENT_TOKENS.visibleChars)}`;
