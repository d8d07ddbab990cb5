import { describe, expect, it } from 'vitest';
import { databaseFault } from './database-faults.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** How drizzle hands over a driver's error: its own, with the driver's as the cause. */
const wrapped = (cause: unknown) => new Error('Failed query: select 1\nparams: ', { cause });

describe('a fault of the toolkit’s own database', () => {
  it('is "unreachable" when it is stopped, restarting, out of connections or away on the network', () => {
    expect(databaseFault(wrapped(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')))).toBe('unreachable');
    expect(databaseFault(withCode('terminating connection due to administrator command', '57P01'))).toBe('unreachable');
    expect(databaseFault(withCode('the database system is starting up', '57P03'))).toBe('unreachable');
    expect(databaseFault(withCode('sorry, too many clients already', '53300'))).toBe('unreachable');
    expect(databaseFault(withCode('connection failure', '08006'))).toBe('unreachable');
    expect(databaseFault(new Error('Connection terminated unexpectedly'))).toBe('unreachable');
    expect(databaseFault(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')]))).toBe(
      'unreachable',
    );
    // An error that crossed from the jobs thread keeps its words only.
    expect(databaseFault(new Error('connect ECONNREFUSED 10.0.0.5:5432'))).toBe('unreachable');
  });

  it('is "disk-full" when PostgreSQL or the embedded database cannot write', () => {
    expect(
      databaseFault(wrapped(withCode('could not extend file "base/5/16384": No space left on device', '53100'))),
    ).toBe('disk-full');
    expect(databaseFault(new Error('could not extend file "base/5/16384": No space left on device'))).toBe('disk-full');
    expect(databaseFault(withCode('ENOSPC: no space left on device, write', 'ENOSPC'))).toBe('disk-full');
  });

  it('is nothing else: a broken rule, a bad query or a platform fault stay what they are', () => {
    expect(databaseFault(withCode('duplicate key value violates unique constraint', '23505'))).toBeNull();
    expect(databaseFault(withCode('syntax error at or near "selec"', '42601'))).toBeNull();
    expect(databaseFault(new Error('The platform answered 503'))).toBeNull();
    expect(databaseFault(undefined)).toBeNull();
    expect(databaseFault('connection refused')).toBeNull();
  });
});
