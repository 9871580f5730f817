// Security events are written once the change they record has committed: never before it, never for a change
// that was refused or rolled back, and not lost when the first write fails.

import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  auditKindsSince,
  cookieFrom,
  lastAuditId,
  mergeCookies,
  originOf,
  postAuth,
  postSignIn,
  signUp,
  stepUp,
  TEST_PASSWORD,
} from '#server/test/auth-helpers'
import { addPasskey, SoftPasskey } from '#server/test/passkey-authenticator'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { currentCode, enableTwoStep } from '#server/test/two-factor'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  // A guard on the audit table that fails the insert of a success row whose change is not in the database
  // yet. Better Auth's writes run in their own transactions, and the test database has one connection, so a
  // change that is visible here has committed.
  await t.db.execute(sql`
    create function audit_row_follows_change() returns trigger language plpgsql as $$
    begin
      if new.result = 'success' and new.kind = 'two_step.enable'
        and not exists (select 1 from users where id = new.actor_id and two_factor_enabled) then
        raise exception 'two_step.enable written before two-step sign-in is on';
      end if;
      if new.result = 'success' and new.kind = 'passkey.add'
        and not exists (select 1 from passkeys where 'passkey:' || id = new.target) then
        raise exception 'passkey.add written before the passkey is stored';
      end if;
      if new.result = 'success' and new.kind = 'passkey.remove'
        and exists (select 1 from passkeys where 'passkey:' || id = new.target) then
        raise exception 'passkey.remove written while the passkey is still there';
      end if;
      if new.result = 'success' and new.kind in ('sign_in', 'sign_in.passkey') and new.detail is null
        and not exists (select 1 from sessions where user_id = new.actor_id) then
        raise exception 'sign-in written before its session exists';
      end if;
      return new;
    end $$`)
  await t.db.execute(sql`
    create trigger audit_row_follows_change before insert on audit_events
    for each row execute function audit_row_follows_change()`)
})
afterAll(() => t?.close())
afterEach(async () => {
  await t.db.execute(sql`drop trigger if exists audit_fails_once on audit_events`)
})

const post = (path: string, cookie: string, payload: unknown) => postAuth(t.app, path, cookie, payload)

/** The next insert into the audit table fails once (a sequence is not rolled back with the failed insert). */
async function failNextAuditWrite() {
  await t.db.execute(sql`create sequence if not exists audit_fail_counter`)
  await t.db.execute(sql`select setval('audit_fail_counter', 1, false)`)
  await t.db.execute(sql`
    create or replace function audit_fails_once() returns trigger language plpgsql as $$
    begin
      if nextval('audit_fail_counter') = 1 then raise exception 'the disk is full'; end if;
      return new;
    end $$`)
  await t.db.execute(sql`
    create trigger audit_fails_once before insert on audit_events
    for each row execute function audit_fails_once()`)
}

describe('security events follow their change', () => {
  it('sign-in, password change, two-step on and off and passkey added and removed are written after they commit', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const before = await lastAuditId(t.db)
    const signedIn = await postSignIn(t.app, { email: who.user.email, password: TEST_PASSWORD })
    expect(signedIn.statusCode).toBe(200)
    const on = await enableTwoStep(t.app, { cookie: cookieFrom(signedIn), password: TEST_PASSWORD })
    const { totpURI } = on
    let cookie = on.cookie
    await stepUp(t.app, { cookie, password: TEST_PASSWORD })

    const added = await addPasskey(t.app, cookie, new SoftPasskey(new URL(originOf(t.app)).origin))
    expect(added.statusCode, added.body).toBe(200)
    cookie = mergeCookies(cookie, added)
    const removed = await post('/passkey/delete-passkey', cookie, { id: (added.json() as { id: string }).id })
    expect(removed.statusCode, removed.body).toBe(200)

    const off = await post('/two-factor/disable', cookie, {
      password: TEST_PASSWORD,
      code: await currentCode(totpURI, 1),
    })
    expect(off.statusCode, off.body).toBe(200)
    cookie = mergeCookies(cookie, off)

    const changed = await post('/change-password', cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a-new-password-42',
    })
    expect(changed.statusCode, changed.body).toBe(200)
    cookie = cookieFrom(changed)

    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual([
      'sign_in:success',
      'sign_in.new_device:success',
      'two_step.setup:success',
      'two_step.enable:success',
      'step_up:success',
      'passkey.add:success',
      'passkey.remove:success',
      'two_step.disable:success',
      'password.change:success',
    ])
  })

  it('a refused change is written as a failure, and the change is not there', async () => {
    const who = await signUp(t.app, { role: 'seller' })
    const before = await lastAuditId(t.db)
    const refused = await post('/change-password', who.cookie, {
      currentPassword: 'not-my-password',
      newPassword: 'a-new-password-42',
    })
    expect(refused.statusCode).toBeGreaterThanOrEqual(400)
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual(['password.change:failure'])
    // The old password still signs in.
    expect((await postSignIn(t.app, { email: who.user.email, password: TEST_PASSWORD })).statusCode).toBe(200)
  })

  it('is written again when the first write fails, and the answer is unchanged', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const before = await lastAuditId(t.db)
    await failNextAuditWrite()
    const changed = await post('/change-password', who.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'another-password-42',
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual(['password.change:success'])
    const { rows } = (await t.db.execute(
      sql`select nextval('audit_fail_counter')::text as n`,
    )) as unknown as {
      rows: { n: string }[]
    }
    const row = rows[0]
    // The first write failed, the second succeeded (and this read is the third number).
    expect(row?.n).toBe('3')
  })
})
