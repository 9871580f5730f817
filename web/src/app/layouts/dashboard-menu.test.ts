import { describe, expect, it } from 'vitest'
import { menuForRole } from './dashboard-layout'

const labels = (items: readonly { label: string }[]) => items.map((i) => i.label)

describe('the dashboard menu', () => {
  it("keeps the seed's items by role, offers a buyer Start selling, and gives a seller who buys My Orders too", () => {
    expect(labels(menuForRole('buyer'))).toEqual(expect.arrayContaining(['My Orders', 'Start selling']))
    expect(labels(menuForRole('seller'))).not.toContain('My Orders')
    expect(labels(menuForRole('seller'))).not.toContain('Start selling')
    expect(labels(menuForRole('seller', true))).toEqual(
      expect.arrayContaining(['Add a Product', 'My Product', 'My Orders']),
    )
    expect(labels(menuForRole('admin'))).not.toContain('Start selling')
  })
})
