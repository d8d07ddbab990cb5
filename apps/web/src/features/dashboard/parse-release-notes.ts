export interface ReleaseNotesEntry {
  heading: string;
  items: string[];
}

/** Reads the release-notes markdown: `## Heading` starts an entry, `- item` adds to it; other lines are ignored. */
export function parseReleaseNotes(markdown: string): ReleaseNotesEntry[] {
  const entries: ReleaseNotesEntry[] = [];
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('## ')) entries.push({ heading: line.slice(3).trim(), items: [] });
    else if (line.startsWith('- ') && entries.length > 0) entries.at(-1)?.items.push(line.slice(2).trim());
  }
  return entries;
}
