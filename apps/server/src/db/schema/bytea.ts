import { customType } from 'drizzle-orm/pg-core';

/** Binary content; node-postgres and the product's PGlite (core/database.ts) both hand back bytes as a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});
