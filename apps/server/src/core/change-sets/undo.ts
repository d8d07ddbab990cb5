import { AppError } from '../errors.js';
import type { JobQueue } from '../queue.js';
import type { SealedTokens } from '../sealed-tokens.js';
import { endRun, sendChangeSetJob } from './job.js';
import type { ChangeSetRepository, ChangeSetRow } from './repository.js';

export interface UndoStart {
  repository: ChangeSetRepository;
  tokens: SealedTokens;
  queue: JobQueue;
  userId: string;
  /** The change set to undo, already found visible to the user. */
  source: ChangeSetRow;
  /** The undo's kind (registered with `undoKind`) and what it stores (the engine adds `sourceRunId`). */
  kind: string;
  input: Record<string, unknown>;
  token: string;
  targetToken?: string;
  /** How the tool names what is undone, in its messages: "migration", "restore". */
  noun: string;
}

/**
 * Starts the undo of a finished change set as a change set of its own, with the tokens it needs (a second
 * organization's too); only one undo of a set ever wins, whatever two requests believe.
 */
export async function startUndo(undo: UndoStart): Promise<ChangeSetRow> {
  const { repository, tokens, queue, source, noun } = undo;
  if (source.status !== 'done' && source.status !== 'failed')
    throw new AppError(409, 'run_in_progress', `Wait for the ${noun} to finish before undoing it.`);
  const already = `This ${noun} has been undone already.`;
  if (source.undoneBy) throw new AppError(409, 'already_undone', already);
  if (source.targetOrganizationId && !undo.targetToken)
    throw new AppError(400, 'target_token_required', `The target organization's token is needed to undo this ${noun}.`);
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
