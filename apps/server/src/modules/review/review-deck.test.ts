import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '@ce/contract';
import { renderReviewDeck } from './review-deck.js';
import { FIXED_PACK } from './review-pack.fixture.js';

/** The deck's parts by name, and its slides in order with their title and text. */
function readDeck(bytes: Buffer) {
  const files = unzipSync(new Uint8Array(bytes));
  const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
  const slideNames = Object.keys(files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  const decoded = (value: string) =>
    value.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => entities[name] ?? '');
  const runs = (xml: string) => [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => decoded(match[1] ?? ''));
  const slides = slideNames.map((name) => {
    const xml = text(name);
    const titleShape = [...xml.matchAll(/<p:sp>[\s\S]*?<\/p:sp>/g)].find((shape) =>
      /<p:ph[^>]*type="title"/.test(shape[0]),
    );
    const rels = text(name.replace('slides/', 'slides/_rels/').replace('.xml', '.xml.rels'));
    const charts = [...rels.matchAll(/Target="(?:\.\.|\/ppt)\/charts\/(chart\d+\.xml)"/g)].map(
      (match) => match[1] ?? '',
    );
    return { title: runs(titleShape?.[0] ?? '').join(''), text: runs(xml).join(' '), charts };
  });
  return { files, slides, text };
}

describe('the review deck', () => {
  let deck: ReturnType<typeof readDeck>;
  beforeAll(async () => {
    deck = readDeck(await renderReviewDeck(FIXED_PACK));
  });

  it('has a slide for the cover and each part of every section, each with its title', () => {
    expect(deck.slides.map((slide) => slide.title)).toEqual([
      'Acme Corporation: Q3 2026 review',
      'Executive summary',
      'Units used and projected',
      'Largest consumers of units (1 of 2)',
      'Largest consumers of units (2 of 2)',
      'Availability of key tests, week over week',
      'Key tests over the period',
      'Alerts',
      'Noisiest alert rules',
      'Alert rules with no new alert in the period',
      'Outages that touched your tests',
      'Events on your tests',
      'Agents',
      'Who changed what',
      'Health trend',
      'What the team did',
      'Recommendations',
    ]);
  });

  it('draws each chart as a native chart part of its slide', () => {
    const withCharts = deck.slides.filter((slide) => slide.charts.length > 0).map((slide) => slide.title);
    expect(withCharts).toEqual([
      'Units used and projected',
      'Availability of key tests, week over week',
      'Alerts',
      'Health trend',
    ]);
    for (const slide of deck.slides.filter((each) => each.charts.length))
      for (const chart of slide.charts) expect(deck.files[`ppt/charts/${chart}`]).toBeDefined();
    // The availability chart has a line per key test, named as the customer knows them.
    const availability = deck.slides[5]?.charts[0] ?? '';
    const xml = deck.text(`ppt/charts/${availability}`);
    for (const test of ['Payroll HTTP', 'Warehouse network', 'Intranet home']) expect(xml).toContain(test);
  });

  it('keeps a long table whole across slides, the header on each', () => {
    const [first, second] = [deck.slides[3], deck.slides[4]];
    for (const part of [first, second]) expect(part?.text).toMatch(/^.*Test Units used/);
    expect(first?.text).toContain('Branch A HTTP');
    expect(first?.text).toContain('Branch J HTTP');
    expect(second?.text).toContain('Branch K HTTP');
    expect(second?.text).toContain('Branch N HTTP');
    expect(second?.text).not.toContain('Branch J HTTP');
  });

  it('says what could not be determined instead of a number, and where each figure came from', () => {
    const changes = deck.slides.find((slide) => slide.title === 'Who changed what');
    expect(changes?.text).toContain('Could not be determined: the token lacks the View activity log permission');
    expect(changes?.text).toContain("Source: the platform's activity log. Figures up to 2026-10-01 06:00 UTC.");
    expect(deck.slides[10]?.text).toContain('https://app.thousandeyes.com/s/wdiacq');
  });

  it("names itself as the pack in its file's properties, not with the library's default", () => {
    const core = deck.text('docProps/core.xml');
    const title = REVIEW_MESSAGES.documentTitle('Acme Corporation', 'Q3 2026');
    expect(core).toContain(`<dc:title>${title}</dc:title>`);
    expect(core).toContain(`<dc:subject>${title}</dc:subject>`);
    expect(core).toContain(`<dc:creator>${FIXED_PACK.preparedBy}</dc:creator>`);
    expect(core).not.toContain('PptxGenJS');
    expect(deck.text('docProps/app.xml')).toContain('<Company>Acme Corporation</Company>');
  });

  it("wears the brand's theme", () => {
    const masters = Object.keys(deck.files).filter((name) => /^ppt\/slideLayouts\/slideLayout\d+\.xml$/.test(name));
    expect(masters.map((name) => deck.text(name)).join('')).toContain('0F766E');
  });
});
