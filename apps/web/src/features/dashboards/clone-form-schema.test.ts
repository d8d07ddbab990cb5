import { describe, expect, it } from 'vitest';
import { cloneFormSchema, descriptionCounter, EMPTY_CLONE_FORM } from './clone-form-schema';

const image = (size = 10, type = 'image/png') => new File([new Uint8Array(size)], 'shot.png', { type });
const valid = {
  ...EMPTY_CLONE_FORM,
  token: 'x'.repeat(34),
  organizationId: 'org',
  aid: '1001',
  dashboardId: 'd1',
  description: 'd'.repeat(50),
  screenshot1: image(),
  screenshot2: image(),
  screenshot3: image(),
};
const messages = (values: object) =>
  cloneFormSchema.safeParse(values).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('the clone form', () => {
  it('accepts a complete form', () => {
    expect(messages(valid)).toEqual([]);
  });

  it("says the spec's messages for the token, the screenshots and their type and size", () => {
    expect(messages({ ...valid, token: 'x'.repeat(33) })).toEqual([
      ['token', 'OAuth token is required (min 34 characters)'],
    ]);
    expect(messages({ ...valid, screenshot2: null })).toEqual([['screenshot2', 'Screenshot 2 is required']]);
    expect(messages({ ...valid, screenshot1: image(10, 'text/plain') })).toEqual([
      ['screenshot1', 'Please upload only image files'],
    ]);
    expect(messages({ ...valid, screenshot3: image(5 * 1024 * 1024 + 1) })).toEqual([
      ['screenshot3', 'File size should not exceed 5MB'],
    ]);
  });

  it('needs 50 characters of description and counts them as they are typed', () => {
    expect(messages({ ...valid, description: 'd'.repeat(49) })).toEqual([
      ['description', 'The description needs at least 50 characters'],
    ]);
    expect(descriptionCounter('  twelve chars ')).toBe('12/50 characters minimum');
  });
});
