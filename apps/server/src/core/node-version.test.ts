import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inRange, nodeRefusal, SUPPORTED_NODE } from './node-version.js';

describe('the Node.js a server starts on', () => {
  it('is the range package.json declares', () => {
    const manifest: unknown = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'));
    expect(manifest).toMatchObject({ engines: { node: SUPPORTED_NODE } });
  });

  it('takes 22.12 and later 22s, and 24 onwards; refuses 20, early 22 and 23', () => {
    for (const version of ['v22.12.0', 'v22.20.1', 'v24.0.0', 'v24.21.0', 'v26.1.0'])
      expect(inRange(version, SUPPORTED_NODE)).toBe(true);
    for (const version of ['v20.20.2', 'v22.11.9', 'v23.9.0', 'v18.0.0', 'nonsense'])
      expect(inRange(version, SUPPORTED_NODE)).toBe(false);
  });

  it('says which Node it is, the range, and how to get Node 24', () => {
    expect(nodeRefusal('v24.21.0')).toBeNull();
    const words = nodeRefusal('v20.20.2');
    expect(words).toContain('CE Toolkit needs Node.js ^22.12.0 || >=24.0.0; this is Node.js v20.20.2.');
    expect(words).toContain('npm install --prefix .node24 node@24');
  });
});
