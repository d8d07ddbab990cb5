/** The Node.js versions the product runs on: the root package.json's `engines.node` (a test keeps them equal). */
export const SUPPORTED_NODE = '^22.12.0 || >=24.0.0';

type Version = [number, number, number];

function parse(text: string): Version | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` is in `range`: alternatives joined by `||`, each `^x.y.z` or `>=x.y.z` (what engines uses). */
export function inRange(version: string, range: string): boolean {
  const actual = parse(version);
  if (!actual) return false;
  return range.split('||').some((alternative) => {
    const term = alternative.trim();
    const floor = parse(term.replace(/^(\^|>=)/, ''));
    if (!floor) return false;
    if (term.startsWith('>=')) return compare(actual, floor) >= 0;
    if (term.startsWith('^')) return actual[0] === floor[0] && compare(actual, floor) >= 0;
    return compare(actual, floor) === 0;
  });
}

/** Why this Node cannot run the product, in words naming the range and how to get Node 24; null when it can. */
export function nodeRefusal(version = process.version, range = SUPPORTED_NODE): string | null {
  if (inRange(version, range)) return null;
  return [
    `CE Toolkit needs Node.js ${range}; this is Node.js ${version}.`,
    'Get Node 24 LTS from the npm registry and put it first on the PATH:',
    '  npm install --prefix .node24 node@24 && export PATH="$PWD/.node24/node_modules/.bin:$PATH"',
  ].join('\n');
}
