import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '@ce/contract';
import { planSlides, renderReviewDeck, renderReviewPdf } from '../src/modules/review/index.js';
import { FIXED_PACK } from '../src/modules/review/review-pack.fixture.js';

const run = promisify(execFile);
const SOFFICE = ['/usr/bin/soffice', '/usr/local/bin/soffice'].find((candidate) => existsSync(candidate));
/** pdftotext breaks lines where a title wraps: compared with single spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('the review deck, opened by LibreOffice, and its PDF', () => {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'review-deck-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('converts to PDF in LibreOffice with every slide and its title, a page a slide', async () => {
    // CI installs LibreOffice (.ci/run); a machine without it is told how to get it, not passed silently.
    expect(SOFFICE, 'LibreOffice is needed: apt-get install libreoffice-impress').toBeDefined();
    const deck = path.join(folder, 'review.pptx');
    await writeFile(deck, await renderReviewDeck(FIXED_PACK));
    await run(
      SOFFICE ?? 'soffice',
      [`-env:UserInstallation=file://${folder}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', folder, deck],
      { timeout: 120_000 },
    );
    const { stdout: pages } = await run('pdfinfo', [path.join(folder, 'review.pdf')]);
    const slides = planSlides(FIXED_PACK);
    expect(/Pages:\s+(\d+)/.exec(pages)?.[1]).toBe(String(slides.length));
    const { stdout } = await run('pdftotext', ['-layout', path.join(folder, 'review.pdf'), '-']);
    const perPage = stdout.split('\f').map(flat);
    slides.forEach((slide, index) => expect(perPage[index]).toContain(slide.title));
    // The charts came through as charts: their category labels and values are on their pages.
    expect(perPage[2]).toContain('September');
    expect(perPage[2]).toContain('29,700');
    expect(perPage[5]).toContain('W39');
  }, 150_000);

  it("draws the same content as a PDF with the report kit alone (the product's PDF, no LibreOffice)", async () => {
    const pdf = path.join(folder, 'kit.pdf');
    await writeFile(pdf, await renderReviewPdf(FIXED_PACK));
    expect((await readFile(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
    const { stdout } = await run('pdftotext', [pdf, '-']);
    const text = flat(stdout);
    for (const slide of planSlides(FIXED_PACK)) expect(text).toContain(slide.title);
    expect(text).toContain('Could not be determined: the token lacks the View activity log permission');
    expect(text).toContain('Branch N HTTP');
    // Its properties are the pack's: what a PDF reader's Properties and a file manager say.
    const info = (await run('pdfinfo', [pdf])).stdout;
    const title = REVIEW_MESSAGES.documentTitle(FIXED_PACK.customer, FIXED_PACK.periodLabel);
    expect(info).toMatch(new RegExp(`^Title:\\s+${title}$`, 'm'));
    expect(info).toMatch(new RegExp(`^Subject:\\s+${title}$`, 'm'));
    expect(info).toMatch(new RegExp(`^Author:\\s+${FIXED_PACK.preparedBy}$`, 'm'));
  }, 60_000);
});
