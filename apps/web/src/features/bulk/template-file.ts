import { TEMPLATE_FILE_FORMAT, templateFileSchema, type BulkTestsFormValues, type TestTemplate } from '@ce/contract';

/** A templates file is a few kilobytes; anything past this is not one. */
export const TEMPLATE_FILE_MAX_BYTES = 1024 * 1024;

/** The JSON 'Export templates' downloads. */
/** The templates as the form holds them (a file read back fills any missing field with its default). */
export function templatesFileText(templates: BulkTestsFormValues['templates']): string {
  return `${JSON.stringify({ format: TEMPLATE_FILE_FORMAT, version: 1, templates }, null, 2)}\n`;
}

export type TemplatesFileResult = { ok: true; templates: TestTemplate[] } | { ok: false; error: string };

/** Reads a file chosen for 'Import templates', judged by its content, never by its name. */
export function parseTemplatesFile(text: string): TemplatesFileResult {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, error: 'This file is not a templates file: it is not JSON' };
  }
  const parsed = templateFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    return { ok: false, error: `${issue?.message ?? 'This file is not a templates file'}${where}` };
  }
  return { ok: true, templates: parsed.data.templates };
}

export async function readTemplatesFile(file: Blob): Promise<TemplatesFileResult> {
  if (file.size > TEMPLATE_FILE_MAX_BYTES) return { ok: false, error: 'The file is larger than 1 MB' };
  if (file.size === 0) return { ok: false, error: 'The file is empty' };
  return parseTemplatesFile(await file.text());
}
