import { customType } from 'drizzle-orm/pg-core';

/** Binary content; PGlite and node-postgres both hand back bytes as a Uint8Array or Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});
