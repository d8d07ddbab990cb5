import { Fragment, useId } from 'react';
import type { ReviewSlide } from '@ce/contract';
import { SlideChart } from './slide-chart';

function Lines({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="space-y-1 text-sm text-slate-700">
      {lines.map((line, index) => (
        <p key={index}>{line}</p>
      ))}
    </div>
  );
}

/**
 * A table whole, as the deck holds it. On a phone each row is a small card of its columns' names and values, so no
 * cell is squeezed to a word's width and nothing scrolls sideways.
 */
function SlideTable({ title, columns, rows }: { title: string; columns: string[]; rows: string[][] }) {
  return (
    <>
      <table className="w-full border-collapse text-sm break-words max-sm:hidden">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr className="bg-brand-700 text-left text-white">
            {columns.map((column) => (
              <th key={column} scope="col" className="px-2 py-1 font-semibold">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} className="border-b border-slate-200 even:bg-slate-50" data-testid="slide-row">
              {row.map((cell, cellIndex) => (
                <td key={cellIndex} className="px-2 py-1 align-top">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-2 sm:hidden" aria-label={title}>
        {rows.map((row, rowIndex) => (
          <li key={rowIndex} className="rounded-md border border-slate-200 p-2 text-sm">
            <dl className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-3 gap-y-1">
              {columns.map((column, cellIndex) => (
                <Fragment key={column}>
                  <dt className="font-semibold text-slate-800">{column}</dt>
                  <dd className="[overflow-wrap:anywhere] text-slate-700">{row[cellIndex]}</dd>
                </Fragment>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

/** One slide of the pack as a card: its title, its content, and its footer (source and cut-off). */
export function SlideCard({ slide, number }: { slide: ReviewSlide; number: number }) {
  const titleId = useId();
  return (
    <article
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="slide"
      data-kind={slide.kind}
    >
      <header className="flex items-baseline gap-2 border-b-4 border-brand-700 pb-2">
        <span className="text-xs text-slate-600">{number}</span>
        <h3 id={titleId} className="min-w-0 text-lg font-semibold break-words text-slate-900">
          {slide.title}
        </h3>
      </header>
      <div className="min-w-0 flex-1 space-y-3">
        {slide.kind === 'cover' && (
          <div className="space-y-1">
            {slide.lines.map((line, index) => (
              <p
                key={index}
                className={index === 0 ? 'text-base font-medium text-brand-800' : 'text-sm text-slate-700'}
              >
                {line}
              </p>
            ))}
          </div>
        )}
        {slide.kind === 'bullets' &&
          slide.groups.map((group) => (
            <div key={group.heading}>
              <h4 className="text-sm font-semibold text-slate-800">{group.heading}</h4>
              <ul className="list-disc space-y-0.5 pl-5 text-sm text-slate-700">
                {group.items.map((item, index) => (
                  <li key={index}>{item}</li>
                ))}
              </ul>
            </div>
          ))}
        {slide.kind === 'chart' && (
          <>
            <SlideChart title={slide.title} chart={slide.chart} />
            <Lines lines={slide.lines} />
          </>
        )}
        {slide.kind === 'table' && (
          <>
            <Lines lines={slide.lines} />
            <SlideTable title={slide.title} columns={slide.columns} rows={slide.rows} />
          </>
        )}
        {slide.kind === 'text' && <Lines lines={slide.lines} />}
      </div>
      {slide.footer && (
        <footer className="text-xs text-slate-600" data-testid="slide-footer">
          {slide.footer}
        </footer>
      )}
    </article>
  );
}
