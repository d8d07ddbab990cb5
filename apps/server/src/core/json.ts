/**
 * Reading JSON whose shape nobody promised (platform answers, stored payloads, uploaded files) without
 * asserting its type: these guards look before the code reads a field.
 */

/** An object with named fields (not null, not a list). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object a field holds (an empty one when it holds something else). */
export const recordOf = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

/** The objects a list field holds (none when it holds something else; its other elements are left out). */
export const recordsOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isRecord) : [];

/** A list (of anything). */
export const isList = (value: unknown): value is unknown[] => Array.isArray(value);

/** A field's value when it is a list (an empty list when it holds something else). */
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
