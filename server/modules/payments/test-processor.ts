/**
 * The built-in card processor used when Stripe is not configured ("Test mode"). It answers Stripe's
 * documented test card numbers the way Stripe does; any other valid card number succeeds.
 */
export type TestCardOutcome = { ok: true } | { ok: false; message: string }

const DECLINES: Record<string, string> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000009987': 'Your card was declined.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': 'Your card’s security code is incorrect.',
}

export function testCardOutcome(cardNumber: string): TestCardOutcome {
  const message = DECLINES[cardNumber.replace(/[\s-]/g, '')]
  return message ? { ok: false, message } : { ok: true }
}
