import { useSyncExternalStore } from 'react';
import { RECENT_TOKENS } from '@ce/contract';
import { forgetToken } from './recent-tokens';
import { readUserItem, writeUserItem } from './user-storage';

/** The customer the user works for: one organization, and the Org Admin token that reaches it. */
export interface Customer {
  token: string;
  organizationId: string;
  organizationName: string;
  /** The names of the account groups the token sees in the organization, as the check found them. */
  accountGroups?: readonly string[];
}

const CURRENT = 'customer.current';
const RECENT = 'customer.recent';

type Listener = () => void;

function isCustomer(value: unknown): value is Customer {
  return (
    typeof value === 'object' &&
    value !== null &&
    'token' in value &&
    typeof value.token === 'string' &&
    'organizationId' in value &&
    typeof value.organizationId === 'string' &&
    'organizationName' in value &&
    typeof value.organizationName === 'string' &&
    (!('accountGroups' in value) ||
      (Array.isArray(value.accountGroups) && value.accountGroups.every((name) => typeof name === 'string')))
  );
}

function parse(raw: string | null): unknown {
  try {
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * The chosen customer and the recent ones, kept as the spec keeps recent tokens: in this browser's storage, under
 * the signed-in user, gone when the session ends (lib/user-storage); never sent to the server but with a tool's
 * own call (decision 0030). Framework-free: the navbar's switcher and the token fields read it.
 */
export function createCustomerStore(storage: () => Storage = () => localStorage) {
  const listeners = new Set<Listener>();
  let seen: { current: string | null; recent: string | null } = { current: null, recent: null };
  let snapshot: { current: Customer | null; recent: readonly Customer[] } = { current: null, recent: [] };

  /** What the storage holds now, the same object while it does not change (as useSyncExternalStore wants). */
  function read() {
    const current = readUserItem(CURRENT, storage());
    const recent = readUserItem(RECENT, storage());
    if (current !== seen.current || recent !== seen.recent) {
      seen = { current, recent };
      const chosen = parse(current);
      const list = parse(recent);
      snapshot = {
        current: isCustomer(chosen) ? chosen : null,
        recent: Array.isArray(list) ? list.filter(isCustomer).slice(0, RECENT_TOKENS.max) : [],
      };
    }
    return snapshot;
  }
  const emit = () => listeners.forEach((listener) => listener());

  return {
    getSnapshot: read,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Works for `customer` from now on, and puts it first among the recent ones. */
    choose(customer: Customer): void {
      const others = read().recent.filter(
        (other) => other.token !== customer.token || other.organizationId !== customer.organizationId,
      );
      writeUserItem(CURRENT, JSON.stringify(customer), storage());
      writeUserItem(RECENT, JSON.stringify([customer, ...others].slice(0, RECENT_TOKENS.max)), storage());
      emit();
    },
    /** No customer chosen; with `everywhere`, the customer leaves the recent ones too ("Forget this customer"). */
    clear({ everywhere = false }: { everywhere?: boolean } = {}): Customer | null {
      const { current, recent } = read();
      writeUserItem(CURRENT, 'null', storage());
      if (everywhere && current) {
        writeUserItem(RECENT, JSON.stringify(recent.filter((other) => other.token !== current.token)), storage());
        forgetToken(current.token, storage());
      }
      emit();
      return current;
    },
    /** The token was refused by the platform: no longer chosen, nor offered. */
    refused(token: string): Customer | null {
      const { current, recent } = read();
      writeUserItem(RECENT, JSON.stringify(recent.filter((other) => other.token !== token)), storage());
      forgetToken(token, storage());
      if (current?.token === token) writeUserItem(CURRENT, 'null', storage());
      emit();
      return current?.token === token ? current : null;
    },
    /** The session changed (the storage's owner): whatever shows the customer reads again. */
    changed: emit,
  };
}

export type CustomerStore = ReturnType<typeof createCustomerStore>;

export const customers = createCustomerStore();

/** The chosen customer (or null) and the recent ones, as they change. */
export function useCustomers(store: CustomerStore = customers) {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/** What a customer is shown as: "Acme Corporation · token …b755f" (the token's last characters, as the chips). */
export const customerLabel = (customer: Customer) =>
  `${customer.organizationName} · token …${customer.token.slice(-RECENT_TOKENS.visibleChars)}`;

/** What the user is told when the platform refuses the chosen customer's token (it was revoked or expired). */
export const customerRefusedMessage = (organizationName: string) =>
  `The platform refused the token for ${organizationName} (revoked or expired), so ${organizationName} is no longer chosen. Paste a new Org Admin token to go on.`;
