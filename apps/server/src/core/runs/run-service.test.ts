import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@ce/contract';
import { AppError } from '../errors.js';
import type { JobQueue } from '../queue.js';
import type { SealedTokens } from '../sealed-tokens.js';
import type { ChangeItemRow, ChangeSetRepository, ChangeSetRow } from '../change-sets/repository.js';
import { changeSetTotals } from '../change-sets/summaries.js';
import { RunService, type RunKind } from './run-service.js';

/** A writing tool of its own: "rename" runs (and their undo) in one account group, items counted. */
const RENAMES: RunKind<{ id: string; kind: string; status: string; done: number }, { id: string; kind: string }> = {
  kinds: ['rename', 'undo-rename'],
  timeline: 'bulk',
  noun: 'rename',
  notFound: { code: 'rename_not_found', message: 'No such rename', otherTool: "That id is another tool's run." },
  summary: (row) => ({ id: row.id, kind: row.kind }),
  run: (row, _items, totals) => ({
    id: row.id,
    kind: row.kind,
    status: row.status,
    done: changeSetTotals(totals, row.id).done,
  }),
  undo: {
    of: 'rename',
    notUndoable: 'Only a rename can be undone.',
    kind: 'undo-rename',
    nothingToUndo: (items) => (items.some((item) => item.status === 'done') ? null : 'This rename renamed nothing.'),
    wroteInto: () => ({ accountGroups: ['g1'] }),
    input: (row) => ({ aid: String(row.input.aid) }),
  },
  notifications: { source: 'bulk', label: () => 'Rename', where: "the rename's results", path: () => '/home/reports' },
};

const user = (id: string): SessionUser => ({ id, email: `${id}@example.com`, name: null, locale: null, role: 'User' });

/** The change sets' table, in memory: the run service's calls only. */
function world() {
  const runs: ChangeSetRow[] = [];
  const items: ChangeItemRow[] = [];
  const sent: unknown[] = [];
  const sealed: string[] = [];
  const repository = {
    async insertRun(row: Partial<ChangeSetRow>, seal: (tx: unknown) => Promise<string>) {
      const created = {
        ...row,
        id: `00000000-0000-4000-8000-00000000000${runs.length}`,
        status: 'queued',
        tokenId: await seal(null),
        targetTokenId: null,
        targetOrganizationId: row.targetOrganizationId ?? null,
        createdAt: new Date('2026-11-26T00:00:00Z'),
        startedAt: null,
        finishedAt: null,
        error: null,
        undoOf: row.undoOf ?? null,
        undoneBy: null,
      } as ChangeSetRow;
      runs.push(created);
      return created;
    },
    findRun: async (id: string) => runs.find((run) => run.id === id),
    listRuns: async ({ userId, kinds }: { userId: string; kinds: string[] }) =>
      runs
        .filter((run) => run.userId === userId && kinds.includes(run.kind))
        .map((run) => ({ ...run, requestedBy: 'a@example.com' })),
    items: async (runId: string) => items.filter((item) => item.runId === runId),
    totals: async (ids: string[]) =>
      items
        .filter((item) => ids.includes(item.runId))
        .map((item) => ({ runId: item.runId, status: item.status, count: 1 })),
    requesterEmail: async () => 'a@example.com',
    updateRun: async (id: string, changes: Partial<ChangeSetRow>) => {
      Object.assign(runs.find((run) => run.id === id) ?? {}, changes);
    },
    markUndone: async (id: string, undoId: string) => {
      const run = runs.find((candidate) => candidate.id === id);
      if (!run || run.undoneBy) return false;
      run.undoneBy = undoId;
      return true;
    },
    failPending: async () => undefined,
  } as unknown as ChangeSetRepository;
  const queue = {
    send: async (_name: string, data: unknown) => {
      sent.push(data);
      return `job-${sent.length}`;
    },
  } as unknown as JobQueue;
  const tokens = {
    seal: async (token: string) => {
      sealed.push(token);
      return `sealed-${sealed.length}`;
    },
    erase: async () => undefined,
  } as unknown as SealedTokens;
  /** The customer module's check: only the token "acme" reads organization o1. */
  const customer = {
    async scope(token: string, organizationId: string) {
      if (token !== 'acme' || organizationId !== 'o1')
        throw new AppError(400, 'unknown_organization', 'This token does not read that organization.');
    },
  };
  const service = new RunService({ repository, queue, tokens, customer, jobsAhead: async () => new Map() }, RENAMES);
  return { service, runs, items, sent, sealed };
}

const start = { kind: 'rename', organization: { id: 'o1', name: 'Acme' }, input: { aid: 'g1' }, token: 'acme' };

describe('the run service', () => {
  it('starts a run with its token sealed and one job queued, and lists and reads it for its requester only', async () => {
    const { service, sent, sealed } = world();
    const run = await service.start(user('u1'), start);
    expect(run).toMatchObject({ kind: 'rename', status: 'queued', done: 0 });
    expect(sealed).toEqual(['acme']);
    expect(sent).toEqual([{ runId: run.id }]);
    expect(await service.list(user('u1'))).toEqual([{ id: run.id, kind: 'rename' }]);
    expect(await service.list(user('u2'))).toEqual([]);
    await expect(service.get(user('u2'), run.id)).rejects.toMatchObject({ statusCode: 404, message: 'No such rename' });
  });

  it("says an id of another tool's run is none of its own", async () => {
    const { service, runs } = world();
    const run = await service.start(user('u1'), start);
    Object.assign(runs[0] ?? {}, { kind: 'restore' });
    await expect(service.get(user('u1'), run.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'rename_not_found',
      message: "That id is another tool's run.",
    });
  });

  it("refuses an undo with another organization's token before anything is queued, and undoes with the right one", async () => {
    const { service, runs, items, sent } = world();
    const run = await service.start(user('u1'), start);
    Object.assign(runs[0] ?? {}, { status: 'done' });
    items.push({ id: 'i1', runId: run.id, status: 'done', resultId: 'x' } as ChangeItemRow);

    await expect(service.undo(user('u1'), run.id, { token: 'globex' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'wrong_organization',
      message:
        'This token does not read Acme, the organization this rename wrote into: paste a token of Acme to undo it.',
    });
    expect(sent).toHaveLength(1);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.undoneBy).toBeNull();

    const undo = await service.undo(user('u1'), run.id, { token: 'acme' });
    expect(undo).toMatchObject({ kind: 'undo-rename', status: 'queued' });
    expect(runs[1]).toMatchObject({ undoOf: run.id, input: { aid: 'g1', sourceRunId: run.id } });
    expect(sent).toEqual([{ runId: run.id }, { runId: undo.id }]);
    await expect(service.undo(user('u1'), run.id, { token: 'acme' })).rejects.toMatchObject({
      statusCode: 409,
      message: 'This rename has been undone already.',
    });
  });

  it('refuses, in the tool’s words, the undo of a run still under way, of another kind, or that did nothing', async () => {
    const { service, runs } = world();
    const run = await service.start(user('u1'), start);
    await expect(service.undo(user('u1'), run.id, { token: 'acme' })).rejects.toMatchObject({
      statusCode: 409,
      message: 'Wait for the rename to finish before undoing it.',
    });
    Object.assign(runs[0] ?? {}, { status: 'done' });
    await expect(service.undo(user('u1'), run.id, { token: 'acme' })).rejects.toMatchObject({
      statusCode: 400,
      message: 'This rename renamed nothing.',
    });
    Object.assign(runs[0] ?? {}, { kind: 'undo-rename' });
    await expect(service.undo(user('u1'), run.id, { token: 'acme' })).rejects.toMatchObject({
      statusCode: 400,
      message: 'Only a rename can be undone.',
    });
  });
});
