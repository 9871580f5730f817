// How a laptop can be had, without the schemas (delivery.ts): the listing's page imports this.

export const DELIVERY_OPTIONS = ['meet', 'ship', 'both'] as const
export type DeliveryOption = (typeof DELIVERY_OPTIONS)[number]

/** How a listing reads its options to a buyer. */
export const DELIVERY_OPTION_LABELS: Record<DeliveryOption, string> = {
  meet: 'Meet in person',
  ship: 'Ships to you',
  both: 'Ships to you or meet in person',
}

export function canShip(option: DeliveryOption): boolean {
  return option === 'ship' || option === 'both'
}
export function canMeet(option: DeliveryOption): boolean {
  return option === 'meet' || option === 'both'
}
