import { describe, expect, it } from 'vitest'
import { safeReturnPath } from './auth-api'
import { ForgotPasswordForm, LoginForm, ResetPasswordForm, SignupForm } from './auth-schemas'

function messages(result: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]))
}

describe('login and signup forms', () => {
  it("speak the seed's messages for missing fields", () => {
    expect(messages(LoginForm.safeParse({ email: '', password: '' }))).toEqual({
      email: 'Email Address is required',
      password: 'Password is required',
    })
    expect(messages(SignupForm.safeParse({ name: ' ', email: '', password: '', role: '' }))).toEqual({
      name: 'Name is required',
      email: 'Email Address is required',
      password: 'Password is required',
      role: 'User role is required',
    })
  })

  it('asks for at least six characters of password', () => {
    expect(messages(LoginForm.safeParse({ email: 'a@b.co', password: '12345' }))).toEqual({
      password: 'Password must be 6 character or longer',
    })
    expect(LoginForm.safeParse({ email: 'a@b.co', password: '123456' }).success).toBe(true)
  })

  it('accepts only buyer or seller as the role', () => {
    expect(
      messages(SignupForm.safeParse({ name: 'A', email: 'a@b.co', password: '123456', role: 'admin' })),
    ).toEqual({
      role: 'User role is required',
    })
  })
})

describe('safeReturnPath', () => {
  it('keeps a path on this site, with its query', () => {
    expect(safeReturnPath('/dashboard/myorders?x=1')).toBe('/dashboard/myorders?x=1')
  })

  it('sends everything else home', () => {
    for (const from of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/login',
      '/signup?from=/x',
      // Browsers drop tabs and newlines from a URL: these would reach /login again, or another site.
      '/log\tin',
      '/log\nin',
      '/\t/evil.example',
      '/\r\n/evil.example',
      '/dashboard /x',
      '/dash\u0000board',
      '/dash\u200bboard',
    ]) {
      expect(safeReturnPath(from)).toBe('/')
    }
  })
})

describe('forgot and reset password forms', () => {
  it('asks for a valid address, and the same new password twice', () => {
    expect(messages(ForgotPasswordForm.safeParse({ email: ' ' }))).toEqual({
      email: 'Email Address is required',
    })
    expect(messages(ForgotPasswordForm.safeParse({ email: 'nope' }))).toEqual({
      email: 'Enter a valid email address',
    })
    expect(messages(ResetPasswordForm.safeParse({ password: '12345', confirm: '12345' }))).toEqual({
      password: 'Password must be 6 character or longer',
    })
    expect(messages(ResetPasswordForm.safeParse({ password: 'secret-1', confirm: 'secret-2' }))).toEqual({
      confirm: 'The two passwords do not match',
    })
    expect(ResetPasswordForm.safeParse({ password: 'secret-1', confirm: 'secret-1' }).success).toBe(true)
  })
})
