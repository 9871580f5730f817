import { eq, type SQL, sql } from 'drizzle-orm'
import { normalEmail } from '#contract/email'
import { users } from '#server/db/schema'

/** The condition "this user has that email", whatever case either is written in. */
export function userHasEmail(email: string): SQL {
  return eq(sql`lower(${users.email})`, normalEmail(email))
}
