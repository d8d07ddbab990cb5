import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../core/database.js';
import { users, type NewUserRow, type UserRow } from '../../db/schema.js';

export type { NewUserRow, UserRow };

/** SQL for accounts, nothing else. Emails are normalised by the service before they reach here. */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return row;
  }

  async findBySsoSubject(subject: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.ssoSubject, subject)).limit(1);
    return row;
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async list(): Promise<UserRow[]> {
    return this.db.select().from(users).orderBy(asc(users.email));
  }

  async insert(row: NewUserRow): Promise<UserRow> {
    const [created] = await this.db.insert(users).values(row).returning();
    if (!created) throw new Error('insert returned no row');
    return created;
  }

  async update(id: string, changes: Partial<NewUserRow>): Promise<UserRow | undefined> {
    const [updated] = await this.db
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return updated;
  }
}
