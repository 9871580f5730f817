// `npm run admin -- --email E --password P [--name N] [--remove-demo | --keep-demo]`: creates an admin, or makes
// an existing account one; then offers to remove the demo accounts, whose password is public.
import readline from 'node:readline/promises'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { PASSWORD_MESSAGES } from '#contract/passwords'
import { passwordRefusal } from '#server/lib/passwords'
import { ConfigError, loadConfig } from './config'
import { DataDirLockedError } from './db/lock'

const USAGE = 'Usage: npm run admin -- --email E --password P [--name N] [--remove-demo | --keep-demo]'

const Args = z
  .object({
    email: z.email({ error: '--email must be an email address' }),
    password: z
      .string({ error: '--password is required' })
      .min(6, '--password must be 6 characters or longer')
      .max(128),
    name: z.string().trim().min(1).max(100).default('Administrator'),
    'remove-demo': z.boolean().default(false),
    'keep-demo': z.boolean().default(false),
  })
  .superRefine((args, ctx) => {
    // The same password rule as sign-up, reset and change (contract/passwords.ts): an admin's most of all.
    const problem = passwordRefusal(args.password, { name: args.name, email: args.email })
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_MESSAGES[problem] })
  })

/** Yes when the person at the terminal says so; no answer (not a terminal) is no. */
async function ask(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout })
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim())
  } finally {
    rl.close()
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      'remove-demo': { type: 'boolean' },
      'keep-demo': { type: 'boolean' },
    },
  })
  const parsed = Args.safeParse(values)
  if (!parsed.success || (parsed.data['remove-demo'] && parsed.data['keep-demo'])) {
    console.error(USAGE)
    for (const issue of parsed.error?.issues ?? []) console.error(`  ${issue.message}`)
    if (parsed.success) console.error('  Give --remove-demo or --keep-demo, not both')
    process.exit(2)
  }
  // The database and the accounts' module (most of the server) load only for arguments that pass: a usage
  // error answers at once.
  const [
    { openDatabase },
    { findDemoAccounts, REMOVE_DEMO_COMMAND, upsertPasswordAccount },
    { removeDemoAccountsNow },
  ] = await Promise.all([import('./database'), import('#server/modules/users'), import('./demo-removal')])
  const config = loadConfig()
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir })
  try {
    const { email, password, name } = parsed.data
    const { created } = await upsertPasswordAccount(database.db, { email, password, name, role: 'admin' })
    console.log(created ? `Created admin ${email}` : `${email} is now an admin (password updated)`)

    const demo = await findDemoAccounts(database.db)
    if (demo.length === 0 || parsed.data['keep-demo']) {
      if (demo.length > 0) {
        console.log(
          `Kept ${demo.length} demo accounts (their password is public; a production server will not start beside them).`,
        )
      }
      return
    }
    const remove =
      parsed.data['remove-demo'] ||
      (await ask(
        `The database holds ${demo.length} demo accounts whose password is public, among them a demo admin. Remove them now? [y/N] `,
      ))
    if (remove) console.log(await removeDemoAccountsNow(database.db, config))
    else {
      console.log(
        `The database holds ${demo.length} demo accounts whose password is public: remove them with \`${REMOVE_DEMO_COMMAND}\` or \`npm run admin -- … --remove-demo\` (a production server will not start beside them).`,
      )
    }
  } finally {
    await database.close()
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err)
  process.exit(1)
})
