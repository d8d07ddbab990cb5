import { isList, isRecord } from '../../core/json.js';

/**
 * How the original browser app's report bodies are read (spec sections 3 and 7): a list of account groups
 * whose final element holds `Mission`, `cec` and `OAuth`, bare or under `no_todo_list2`; or an object holding
 * them beside `accountGroups`, `accounts` or `selectedAccounts` (TAM activity, AHC-IE, the report wizard's
 * dashboard push), `orgName` (maintenance window), `daysRange`, `planner` and `selected` (AHC-IE's tables
 * and days). The bulk API names the token `OAuthToken` and one group `accountGroupId`.
 */
export interface OriginalRequest {
  mission: string | null;
  cec: string | null;
  token: string | null;
  groups: { aid: string; accountGroupName: string; organizationName: string | null }[];
  orgName: string | null;
  daysRange: number | null;
  tables: string[] | null;
  planner: unknown[] | null;
  /** Every field of the object (or of the list's last element), for the calls that read more. */
  fields: Record<string, unknown>;
}

type Json = Record<string, unknown>;
export const isObject = isRecord;
const text = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null;
const isMeta = (value: Json) => 'Mission' in value || 'OAuth' in value || 'cec' in value || 'OAuthToken' in value;

function group(value: unknown): OriginalRequest['groups'][number] | null {
  if (!isObject(value))
    return text(value) ? { aid: String(text(value)), accountGroupName: '', organizationName: null } : null;
  const aid = text(value.aid) ?? text(value.accountGroupId) ?? text(value.id);
  if (!aid) return null;
  return {
    aid,
    accountGroupName: text(value.accountGroupName) ?? text(value.name) ?? '',
    organizationName: text(value.organizationName),
  };
}

export function readOriginalBody(body: unknown): OriginalRequest {
  let list: unknown[] = [];
  let fields: Json = {};
  if (Array.isArray(body)) list = body;
  else if (isObject(body)) {
    const wrapped = body.no_todo_list2;
    if (Array.isArray(wrapped)) {
      list = wrapped;
      const { no_todo_list2: _list, ...rest } = body;
      fields = rest;
    } else fields = body;
  }
  const metas = list.filter((entry): entry is Json => isObject(entry) && isMeta(entry));
  for (const meta of metas) fields = { ...fields, ...meta };
  const listed = list.filter((entry) => !(isObject(entry) && isMeta(entry)));
  const named = [fields.accountGroups, fields.accounts, fields.selectedAccounts].find(isList);
  const single = text(fields.accountGroupId) ?? text(fields.aid);
  const groups = [...listed, ...(named ?? []), ...(single && !listed.length && !named ? [single] : [])]
    .map(group)
    .filter((entry): entry is NonNullable<typeof entry> => entry !== null);
  const selected = isObject(fields.selected) ? fields.selected : {};
  const days = Number(fields.daysRange ?? selected.daysRange);
  const tables = fields.tables ?? selected.tables;
  return {
    mission: text(fields.Mission),
    cec: text(fields.cec),
    token: text(fields.OAuth) ?? text(fields.OAuthToken),
    groups,
    orgName: text(fields.orgName) ?? text(fields.organizationName),
    daysRange: Number.isInteger(days) && days > 0 ? days : null,
    tables: Array.isArray(tables) ? tables.map(String) : null,
    planner: Array.isArray(fields.planner) ? fields.planner : null,
    fields,
  };
}
