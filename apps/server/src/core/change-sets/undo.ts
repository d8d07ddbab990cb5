import { AppError } from '../errors.js';
import type { JobQueue } from '../queue.js';
import type { SealedTokens } from '../sealed-tokens.js';
import { endRun, sendChangeSetJob } from './job.js';
import type { ChangeSetRepository, ChangeSetRow } from './repository.js';

/** Who tells whether a customer's token reads an organization and its account groups (the customer module). */
export interface OrganizationReader {
  /** Refuses (4xx) a token of another organization (`unknown_organization`) or one that cannot see a group. */
  scope(token: string, organizationId: string, aids: Iterable<string>, options?: { side?: 'target' }): Promise<unknown>;
}

/** Where a run wrote: account groups of its organization, and of a second organization when it crossed to one. */
export interface WroteInto {
  accountGroups: readonly string[];
  target?: { organizationName: string | null; accountGroups: readonly string[] };
}

export interface UndoStart {
  repository: ChangeSetRepository;
  tokens: SealedTokens;
  queue: JobQueue;
  customer: OrganizationReader;
  userId: string;
  /** The change set to undo, already found visible to the user. */
  source: ChangeSetRow;
  /** Where the change set wrote, which is where its undo writes: the tokens must read it. */
  wroteInto: WroteInto;
  /** The undo's kind (registered with `undoKind`) and what it stores (the engine adds `sourceRunId`). */
  kind: string;
  input: Record<string, unknown>;
  token: string;
  targetToken?: string;
  /** How the tool names what is undone, in its messages: "migration", "restore", "run". */
  noun: string;
}

/** Refuses the undo of a change set still under way or undone already (before anything else is read of it). */
export function assertUndoable(source: ChangeSetRow, noun: string): void {
  if (source.status !== 'done' && source.status !== 'failed')
    throw new AppError(409, 'run_in_progress', `Wait for the ${noun} to finish before undoing it.`);
  if (source.undoneBy) throw new AppError(409, 'already_undone', `This ${noun} has been undone already.`);
}

/** Refuses a token that does not read the organization (or one of the groups) the change set wrote into. */
async function assertReads(
  customer: OrganizationReader,
  token: string,
  organization: { id: string; name: string },
  aids: readonly string[],
  refusal: string,
  side?: 'target',
): Promise<void> {
  try {
    await customer.scope(token, organization.id, aids, { side });
  } catch (error) {
    if (error instanceof AppError && error.code === 'unknown_organization')
      throw new AppError(400, 'wrong_organization', refusal);
    throw error;
  }
}

/**
 * The one check every undo makes before anything is queued: the token reads the organization the change set
 * wrote into (and the target organization's token, the second organization's), with the groups it wrote.
 * Without it, an undo sent with another organization's token would start, fail on every item, and leave the
 * change set marked undone. Refused in words that name the organization; the change set stays undoable.
 */
async function assertUndoReads(undo: UndoStart): Promise<void> {
  const { customer, source, wroteInto, noun } = undo;
  const words = (whose: string, name: string) =>
    `${whose} does not read ${name}, the organization this ${noun} wrote into: paste a token of ${name} to undo it.`;
  await assertReads(
    customer,
    undo.token,
    { id: source.organizationId, name: source.organizationName },
    wroteInto.accountGroups,
    words('This token', source.organizationName),
  );
  if (source.targetOrganizationId && wroteInto.target) {
    const name = wroteInto.target.organizationName ?? 'the target organization';
    await assertReads(
      customer,
      undo.targetToken ?? '',
      { id: source.targetOrganizationId, name },
      wroteInto.target.accountGroups,
      words("The target organization's token", name),
      'target',
    );
  }
}

/**
 * Starts the undo of a finished change set as a change set of its own, with the tokens it needs (a second
 * organization's too), once they are known to read where the set wrote; only one undo of a set ever wins,
 * whatever two requests believe.
 */
export async function startUndo(undo: UndoStart): Promise<ChangeSetRow> {
  const { repository, tokens, queue, source, noun } = undo;
  assertUndoable(source, noun);
  if (source.targetOrganizationId && !undo.targetToken)
    throw new AppError(400, 'target_token_required', `The target organization's token is needed to undo this ${noun}.`);
  await assertUndoReads(undo);
  const targetToken = source.targetOrganizationId ? undo.targetToken : undefined;
  const row = await repository.insertRun(
    {
      userId: undo.userId,
      kind: undo.kind,
      organizationId: source.organizationId,
      organizationName: source.organizationName,
      targetOrganizationId: source.targetOrganizationId,
      input: { ...undo.input, sourceRunId: source.id },
      undoOf: source.id,
    },
    (tx) => tokens.seal(undo.token, tx),
    targetToken ? (tx) => tokens.seal(targetToken, tx) : undefined,
  );
  const already = `This ${noun} has been undone already.`;
  if (!(await repository.markUndone(source.id, row.id))) {
    await endRun(repository, tokens, row, already);
    throw new AppError(409, 'already_undone', already);
  }
  try {
    await sendChangeSetJob(queue, repository, row.id);
  } catch (error) {
    await endRun(repository, tokens, row, `The undo could not be queued. Start it again.`);
    throw error;
  }
  return row;
}
