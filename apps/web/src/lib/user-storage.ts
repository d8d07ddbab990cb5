/**
 * Local storage that belongs to the signed-in user: keys are `ce.user.<user id>.<name>`. When the
 * session ends for any reason (sign-out, expiry, a 401, another user signing in on this browser), what
 * earlier users kept is removed, so nothing one user kept (recent customer tokens) reaches the next.
 */
const PREFIX = 'ce.user.';

let owner: string | null = null;

const keysOf = (storage: Storage) =>
  Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter(
    (key): key is string => key !== null && key.startsWith(PREFIX),
  );

/** Who is signed in now (`null`: nobody): everything kept by anyone else is removed. */
export function setStorageOwner(userId: string | null, storage: Storage = localStorage): void {
  owner = userId;
  for (const key of keysOf(storage)) {
    if (userId === null || !key.startsWith(`${PREFIX}${userId}.`)) storage.removeItem(key);
  }
}

export function readUserItem(name: string, storage: Storage = localStorage): string | null {
  return owner === null ? null : storage.getItem(`${PREFIX}${owner}.${name}`);
}

/** Keeps an item for the signed-in user; without one, nothing is kept. */
export function writeUserItem(name: string, value: string, storage: Storage = localStorage): void {
  if (owner !== null) storage.setItem(`${PREFIX}${owner}.${name}`, value);
}
