import { useSyncExternalStore } from 'react';
import { RECENT_TOKENS, type ReportAccountGroup } from '@ce/contract';
import { forgetToken } from './recent-tokens';
import { readUserItem, writeUserItem } from './user-storage';

/** The customer the user works for: one organization, and the Org Admin token that reaches it. */
export interface Customer {
  token: string;
  organizationId: string;
  organizationName: string;
  /** The names of the account groups the token sees in the organization, as the check found them. */
  accountGroups?: readonly string[];
  /**
   * Those account groups as the check read them (ids and names): a tool opened with the customer's token uses them
   * rather than asking the platform again (it still refuses a token revoked since, at the tool's own call).
   */
  groups?: readonly ReportAccountGroup[];
  /** What the token may do, as the check proved it: "read-only", the sentence saying so, and whether it may do all. */
  ability?: { label: string; summary: string; full?: boolean };
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
      (Array.isArray(value.accountGroups) && value.accountGroups.every((name) => typeof name === 'string'))) &&
    (!('groups' in value) || (Array.isArray(value.groups) && value.groups.every(isGroup))) &&
    (!('ability' in value) ||
      (typeof value.ability === 'object' &&
        value.ability !== null &&
        'label' in value.ability &&
        typeof value.ability.label === 'string' &&
        'summary' in value.ability &&
        typeof value.ability.summary === 'string'))
  );
}

function isGroup(value: unknown): value is ReportAccountGroup {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['aid', 'accountGroupName', 'organizationId', 'organizationName'].every(
      (key) => typeof (value as Record<string, unknown>)[key] === 'string',
    )
  );
}

/**
 * Whether `other` is an entry `customer` replaces among the recent ones: the same token for the organization, or
 * one that would read the same ("Acme Corporation", the same ability or none said): two entries a person could not
 * tell apart are one.
 */
const replacedBy = (customer: Customer) => (other: Customer) =>
  other.organizationId === customer.organizationId &&
  (other.token === customer.token ||
    !other.ability ||
    !customer.ability ||
    other.ability.label === customer.ability.label);

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
      const others = read().recent.filter((other) => !replacedBy(customer)(other));
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

/**
 * What a customer is shown as: "Acme Corporation · token …b755f" (the token's last characters, as the chips), and
 * what the token may do when the check said it: "Acme Corporation · token …b755f · read-only".
 */
export const customerLabel = (customer: Customer) =>
  `${customer.organizationName} · token …${customer.token.slice(-RECENT_TOKENS.visibleChars)}${customer.ability?.label ? ` · ${customer.ability.label}` : ''}`;

/**
 * The account groups of the chosen customer when `token` is its token (checked when it was chosen), else null: a
 * tool opened for the customer does not check its token again.
 */
export function chosenCustomerGroups(token: string, store: CustomerStore = customers): ReportAccountGroup[] | null {
  const { current } = store.getSnapshot();
  return current?.token === token && current.groups && current.groups.length > 0 ? [...current.groups] : null;
}

/** What the user is told when the platform refuses the chosen customer's token (it was revoked or expired). */
export const customerRefusedMessage = (organizationName: string) =>
  `The platform refused the token for ${organizationName} (revoked or expired), so ${organizationName} is no longer chosen. Paste a new Org Admin token to go on.`;
