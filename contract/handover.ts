import { z } from 'zod'

// The handover checklist: what a careful buyer checks before "Received, as described", each with a line on how. An
// item left unticked offers "Report a problem" with that reason filled in. The answers are kept on the deal and
// shown to the admin handling a dispute.

export const HANDOVER_CHECK_KEYS = [
  'serial',
  'no_activation_lock',
  'no_firmware_password',
  'accounts_signed_out',
  'battery_as_described',
] as const
export type HandoverCheckKey = (typeof HANDOVER_CHECK_KEYS)[number]

export type HandoverCheck = {
  key: HandoverCheckKey
  /** What is checked; `{last4}` is the listing's serial ending (see checkLabel). */
  label: string
  how: string
  /** The reason "Report a problem" starts with when this item is not ticked (see checkProblem). */
  problem: string
}

export const HANDOVER_CHECKS: readonly HandoverCheck[] = [
  {
    key: 'serial',
    label: 'The serial number on the laptop ends with {last4}',
    how: 'Windows: Settings → System → About (or the label underneath). Mac: Apple menu → About This Mac. Linux: sudo dmidecode -s system-serial-number.',
    problem:
      'The serial number on the laptop does not end with {last4}, the four characters shown on the deal.',
  },
  {
    key: 'no_activation_lock',
    label: 'No Activation Lock and no "Remote Management" screen (Mac)',
    how: 'On a Mac: Apple menu → System Settings → General → About shows no Activation Lock, and starting it up shows no "Remote Management" screen asking to enrol it. Not a Mac: tick it.',
    problem: 'The laptop is locked to someone else: Activation Lock or a "Remote Management" screen is on.',
  },
  {
    key: 'no_firmware_password',
    label: 'No firmware or BIOS password',
    how: 'Restart and open the setup (F2, F1, Del or Esc on most Windows laptops; on an Intel Mac hold Option): it opens without asking for a password.',
    problem: 'The laptop has a firmware (BIOS) password I was not given.',
  },
  {
    key: 'accounts_signed_out',
    label: "The seller's accounts are signed out (Find My off, Microsoft account removed)",
    how: "Mac: System Settings shows no Apple ID of the seller, and Find My is off. Windows: Settings → Accounts shows no Microsoft account of the seller. Any system: no seller's user account to sign in to.",
    problem: "The seller's accounts are still on the laptop (Find My or a Microsoft account).",
  },
  {
    key: 'battery_as_described',
    label: 'The battery is as described',
    how: 'Make a battery report the way the listing form describes (Windows: powercfg /batteryreport; Mac: System Information → Power; Linux: upower -i) and compare health and cycles with the listing.',
    problem: 'The battery is worse than the listing described.',
  },
]

/** Each item ticked (true) or not (false). */
export const HandoverChecklist = z.strictObject(
  Object.fromEntries(
    HANDOVER_CHECK_KEYS.map((key) => [key, z.boolean({ error: 'Tick or untick each item' })]),
  ) as Record<HandoverCheckKey, z.ZodBoolean>,
)
export type HandoverChecklist = z.infer<typeof HandoverChecklist>

/** "Received, as described" needs every item of the checklist ticked. */
export const ReceivedBody = z.strictObject({
  checklist: HandoverChecklist.refine((c) => HANDOVER_CHECK_KEYS.every((key) => c[key]), {
    message: 'Tick every item of the handover checklist, or report a problem instead',
  }),
})
export type ReceivedBody = z.infer<typeof ReceivedBody>

/** The answers as kept on the deal. */
export const HandoverAnswers = z.object({
  checklist: z.record(z.string(), z.boolean()),
  checked_at: z.string(),
})
export type HandoverAnswers = z.infer<typeof HandoverAnswers>

/**
 * The serial item when the seller gave no serial: there is nothing to compare, so the buyer notes the laptop's own
 * (and reports a laptop that has none to be found).
 */
const NO_SERIAL = {
  label: 'No serial given for this laptop: write down the serial number on the laptop for your records',
  problem: 'No serial given for this laptop, and I could not find a serial number on it.',
}

/** An item as the buyer reads it: the serial item names the serial's last four, or says no serial was given. */
export function checkLabel(check: HandoverCheck, serialLast4: string | null | undefined): string {
  if (!check.label.includes('{last4}')) return check.label
  return serialLast4 ? check.label.replace('{last4}', `"${serialLast4}"`) : NO_SERIAL.label
}

/** The reason "Report a problem" starts with for an item left unticked. */
export function checkProblem(check: HandoverCheck, serialLast4: string | null | undefined): string {
  if (!check.problem.includes('{last4}')) return check.problem
  return serialLast4 ? check.problem.replace('{last4}', `"${serialLast4}"`) : NO_SERIAL.problem
}
