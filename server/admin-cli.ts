// `npm run admin -- --email E --password P [--name N]`: creates an admin, or makes an existing account one.
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { upsertPasswordAccount } from '#server/modules/users'
import { ConfigError, loadConfig } from './config'
import { openDatabase } from './database'
import { DataDirLockedError } from './db/lock'

const Args = z.object({
  email: z.email({ error: '--email must be an email address' }),
  password: z
    .string({ error: '--password is required' })
    .min(6, '--password must be 6 characters or longer')
    .max(128),
  name: z.string().trim().min(1).max(100).default('Administrator'),
})

async function main() {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  })
  const parsed = Args.safeParse(values)
  if (!parsed.success) {
    console.error('Usage: npm run admin -- --email E --password P [--name N]')
    for (const issue of parsed.error.issues) console.error(`  ${issue.message}`)
    process.exit(2)
  }
  const config = loadConfig()
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir })
  try {
    const { email, password, name } = parsed.data
    const { created } = await upsertPasswordAccount(database.db, { email, password, name, role: 'admin' })
    console.log(created ? `Created admin ${email}` : `${email} is now an admin (password updated)`)
  } finally {
    await database.close()
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err)
  process.exit(1)
})
