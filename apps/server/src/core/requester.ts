import { eq } from 'drizzle-orm';
import { users } from '../db/schema.js';
import type { Db } from './database.js';

/** The email of the user who asked for a job (where its results are delivered); '' once the user is gone. */
export async function emailOf(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? '';
}
