/**
 * Escapes text for Webex markdown: organization, account-group and rule names come from the platform
 * and may hold characters that would format the message, make links or inject HTML.
 */
export function escapeMarkdown(value: unknown): string {
  return String(value ?? '')
    .replace(/[\r\n]+/g, ' ')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[\\`*_{}[\]()#+\-.!|~]/g, (character) => `\\${character}`);
}
