import { can, capabilityForPath, type Capability, type SessionUser } from '@ce/contract';

/** Client-side checks are for usability only: the server checks every operation again. */
export function userCan(user: SessionUser | null | undefined, capability: Capability): boolean {
  return can(user?.role ?? null, capability);
}

export function userCanOpen(user: SessionUser | null | undefined, path: string): boolean {
  return userCan(user, capabilityForPath(path));
}
