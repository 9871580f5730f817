import { hashPassword as libraryHash, verifyPassword as libraryVerify } from 'better-auth/crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { hashPassword, setPasswordHashCost, verifyPassword } from './password-hash'

describe('password hashes', () => {
  // The suites' own cost (server/test/setup.ts) again after each test.
  afterEach(() => setPasswordHashCost(1_024))

  it("read the auth library's hashes, and make ones it reads, at the instances' cost", async () => {
    setPasswordHashCost(16_384)
    const theirs = await libraryHash('cobalt-orchard-63')
    expect(await verifyPassword({ hash: theirs, password: 'cobalt-orchard-63' })).toBe(true)
    expect(await verifyPassword({ hash: theirs, password: 'cobalt-orchard-64' })).toBe(false)
    const ours = await hashPassword('violet-kettle-42')
    expect(ours).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/)
    expect(await libraryVerify({ hash: ours, password: 'violet-kettle-42' })).toBe(true)
  })

  it('say a lower cost in front, and are read at it whatever the cost now', async () => {
    setPasswordHashCost(1_024)
    const cheap = await hashPassword('mossy-harbor-29')
    expect(cheap).toMatch(/^1024\$[0-9a-f]{32}:[0-9a-f]{128}$/)
    setPasswordHashCost(16_384)
    expect(await verifyPassword({ hash: cheap, password: 'mossy-harbor-29' })).toBe(true)
    expect(await verifyPassword({ hash: cheap, password: 'mossy-harbor-30' })).toBe(false)
    // The same key at the instances' cost is another key: the cost is part of what is checked.
    expect(
      await verifyPassword({ hash: cheap.slice(cheap.indexOf('$') + 1), password: 'mossy-harbor-29' }),
    ).toBe(false)
  })

  it('refuse a cost that is not a power of two, and a hash that is not one', async () => {
    expect(() => setPasswordHashCost(1_000)).toThrow('power of two')
    await expect(verifyPassword({ hash: 'nonsense', password: 'x' })).rejects.toThrow('Invalid password hash')
    await expect(verifyPassword({ hash: '1000$ab:cd', password: 'x' })).rejects.toThrow(
      'Invalid password hash',
    )
  })
})
