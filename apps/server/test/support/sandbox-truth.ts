import { expect } from 'vitest';
import type { TestApp } from '../build-test-app.js';

/** A v7 answer as the sandbox gives it, read as plain JSON. */
export type Json = Record<string, unknown>;

/**
 * The sandbox's own v7 answers, read through the app that mounts it with a customer's token (as the platform answers
 * anyone): what a test computes its truth from, apart from the product's reads. A path may be a `_links` href.
 */
export function sandboxTruth(app: () => TestApp['app'], token: () => string) {
  const v7 = async (path: string, as = token()): Promise<Json> => {
    const response = await app().inject({
      method: 'GET',
      url: path.startsWith('http') ? new URL(path).pathname + new URL(path).search : `/sandbox/te/v7${path}`,
      headers: { authorization: `Bearer ${as}` },
    });
    expect(response.statusCode, `${path}: ${response.body.slice(0, 200)}`).toBe(200);
    return response.json<Json>();
  };
  /** Every page of a list, following `_links.next`. */
  const pages = async (path: string, key: string): Promise<Json[]> => {
    const all: Json[] = [];
    for (let next: string | undefined = path; next;) {
      const page = await v7(next);
      all.push(...((page[key] as Json[] | undefined) ?? []));
      next = (page._links as { next?: { href: string } } | undefined)?.next?.href;
    }
    return all;
  };
  return { v7, pages };
}
