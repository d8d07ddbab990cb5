import { inflateSync } from 'node:zlib';
import { textWidth } from '../../src/report-kit/pdf.js';

/**
 * The text of a PDF the product made (pdfmake over PDFKit, the standard fonts), page by page and line by line, as
 * `pdftotext` reads it: no PDF library is needed to read back what a customer would see. Each page's content stream
 * is inflated, every text fragment (`TJ`, `Tj`) is placed on the page (its text matrix through the transformations in
 * force), the fragments of one baseline are joined left to right, and the lines are ordered top to bottom. Words of a
 * line of text are joined by a space; cells side by side (fragments further apart than a space) by " | ". Text drawn
 * by a chart (an SVG, a glyph at a time) is read the same way.
 */
export function pdfPages(pdf: Buffer): string[][] {
  const source = pdf.toString('latin1');
  const pages: string[][] = [];
  const streams = /<<((?:(?!>>)[\s\S])*)>>\s*stream\r?\n/g;
  for (let match = streams.exec(source); match; match = streams.exec(source)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    if (end < 0) break;
    const dictionary = match[1] ?? '';
    // Content streams only: fonts, images and object streams carry a type or a subtype of their own.
    if (/\/(Subtype|Type)\b/.test(dictionary)) continue;
    let content: string;
    try {
      content = /\/FlateDecode/.test(dictionary)
        ? inflateSync(pdf.subarray(start, end)).toString('latin1')
        : source.slice(start, end);
    } catch {
      continue;
    }
    const lines = textLines(content);
    if (lines.length) pages.push(lines);
  }
  return pages;
}

/** Every line of every page, in order. */
export const pdfText = (pdf: Buffer): string => pdfPages(pdf).flat().join('\n');

/** Windows-1252's characters at 0x80-0x9f (what PDFKit's WinAnsi encoding writes for them). */
const WIN_ANSI: Record<number, string> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};

const decodeHex = (hex: string): string =>
  (hex.match(/[0-9a-f]{2}/gi) ?? [])
    .map((pair) => {
      const code = Number.parseInt(pair, 16);
      return WIN_ANSI[code] ?? String.fromCharCode(code);
    })
    .join('');

const decodeLiteral = (literal: string): string =>
  literal.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, escaped: string) => {
    const named: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
    if (/^[0-7]+$/.test(escaped)) return String.fromCharCode(Number.parseInt(escaped, 8));
    return named[escaped] ?? escaped;
  });

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** `m` then `n` (PDF's row-vector convention: a point goes through m first). */
const times = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

/** The tokens of a content stream: numbers, names, strings, array brackets and operators. */
const TOKENS =
  /<([0-9a-fA-F\s]*)>|\(((?:\\.|[^\\)])*)\)|(\[|\])|(\/[^\s/[\]()<>]+)|([-+]?(?:\d+\.?\d*|\.\d+))|([A-Za-z'"*]+)/g;

function textLines(content: string): string[] {
  const fragments: { x: number; y: number; end: number; size: number; order: number; text: string }[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  let tm: Matrix = IDENTITY;
  let fontSize = 0;
  let operands: (number | string)[] = [];
  let strings: string[] = [];
  const show = (text: string) => {
    if (!text) return;
    const placed = times(tm, ctm);
    const scale = Math.sqrt(Math.abs(placed[0] * placed[3] - placed[1] * placed[2]));
    const size = fontSize * scale;
    fragments.push({
      x: placed[4],
      y: placed[5],
      end: placed[4] + textWidth(text, size),
      size,
      order: fragments.length,
      text,
    });
  };
  for (const token of content.matchAll(TOKENS)) {
    const [, hex, literal, bracket, name, number, operator] = token;
    if (hex !== undefined) strings.push(decodeHex(hex));
    else if (literal !== undefined) strings.push(decodeLiteral(literal));
    else if (bracket !== undefined || name !== undefined) operands.push(name ?? '');
    else if (number !== undefined) operands.push(Number(number));
    else if (operator !== undefined) {
      const numbers = operands.filter((operand): operand is number => typeof operand === 'number');
      if (operator === 'q') stack.push(ctm);
      else if (operator === 'Q') ctm = stack.pop() ?? IDENTITY;
      else if (operator === 'cm' && numbers.length >= 6) ctm = times(numbers.slice(-6) as Matrix, ctm);
      else if (operator === 'BT') tm = IDENTITY;
      else if (operator === 'Tm' && numbers.length >= 6) tm = numbers.slice(-6) as Matrix;
      else if (operator === 'Td' && numbers.length >= 2)
        tm = times([1, 0, 0, 1, numbers.at(-2) ?? 0, numbers.at(-1) ?? 0], tm);
      else if (operator === 'Tf') fontSize = numbers.at(-1) ?? fontSize;
      else if (operator === 'TJ' || operator === 'Tj') show(strings.join(''));
      operands = [];
      strings = [];
    }
  }
  // One baseline: within a third of the text's size (a bold cell and a plain one of the same row sit on one line).
  const rows: { y: number; parts: typeof fragments }[] = [];
  for (const fragment of fragments) {
    const row = rows.find((candidate) => Math.abs(candidate.y - fragment.y) < Math.max(1, fragment.size / 3));
    if (row) row.parts.push(fragment);
    else rows.push({ y: fragment.y, parts: [fragment] });
  }
  // y counts up from the foot of the page: the top line first. Left to right on a line: a fragment that starts
  // where the one before ended continues its word, one a little further on is the next word, and one further still
  // (past a cell's padding) is the next cell.
  return rows
    .sort((a, b) => b.y - a.y)
    .map((row) => {
      let line = '';
      let end = Number.NEGATIVE_INFINITY;
      for (const part of row.parts.sort((a, b) => a.x - b.x || a.order - b.order)) {
        const gap = part.x - end;
        if (line === '') line = part.text;
        else if (gap > part.size * 0.9) line = `${line.trimEnd()} | ${part.text}`;
        else if (gap > part.size * 0.15 && !/[\s-]$/.test(line)) line = `${line} ${part.text}`;
        else line += part.text;
        end = part.end;
      }
      return line.trim();
    })
    .filter(Boolean);
}
