import Papa from 'papaparse';
import { z } from 'zod';
import { bulkInvitationFields, INVITEE_EMAIL, type Invitee } from '@ce/contract';

const EMAIL_HEADERS = new Set(['email', 'e-mail', 'email address', 'mail']);
const NAME_HEADERS = new Set(['name', 'full name', 'display name']);

/**
 * Reads a pasted list or a CSV of invitations: one address per line, or a CSV (comma, semicolon or
 * tab, quoted fields, a byte-order mark) with an email column and optionally a name column. Empty cells
 * keep their place, so `,bob@example.com` under `name,email` is Bob's address with no name. Returns the
 * invitees, each address once, and the lines it could not read.
 */
export function parseInvitees(text: string): { invitees: Invitee[]; rejected: string[] } {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, '').trim(), {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t'],
  });
  const rows = parsed.data.map((row) => row.map((cell) => cell.trim()));
  const header = (rows[0] ?? []).map((cell) => cell.toLowerCase());
  const emailColumn = header.findIndex((cell) => EMAIL_HEADERS.has(cell));
  const nameColumn = header.findIndex((cell) => NAME_HEADERS.has(cell));
  const body = emailColumn >= 0 ? rows.slice(1) : rows;
  const invitees: Invitee[] = [];
  const rejected: string[] = [];
  const seen = new Set<string>();
  for (const cells of body) {
    const candidates = emailColumn >= 0 ? [cells[emailColumn] ?? ''] : cells;
    const email = candidates.find((cell) => INVITEE_EMAIL.test(cell))?.toLowerCase();
    if (!email) {
      rejected.push(cells.join(', '));
      continue;
    }
    if (seen.has(email)) continue;
    seen.add(email);
    invitees.push({ email, name: nameColumn >= 0 ? (cells[nameColumn] ?? '') : '' });
  }
  return { invitees, rejected };
}

/**
 * The users tool's form: a role, and the text of the invitations, read by parseInvitees and checked as
 * the server checks a run's invitees (at least one, at most 1,000).
 */
export const usersFormSchema = z
  .object({ roleId: bulkInvitationFields.roleId, text: z.string() })
  .superRefine(({ text }, context) => {
    const checked = bulkInvitationFields.invitees.safeParse(parseInvitees(text).invitees);
    for (const issue of checked.error?.issues ?? [])
      context.addIssue({ code: 'custom', path: ['text'], message: issue.message });
  });
