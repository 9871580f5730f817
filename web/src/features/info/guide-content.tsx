import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { BATTERY_REPORT_HOW_TO } from '#contract/battery-reports'
import type { GuideSlug } from '#contract/guides'
import { paths } from '#contract/pages'
import { CONDITION_DEFINITIONS, CONDITIONS } from '#contract/products'

/** The text of each guide. Figures the product itself uses (grades, report steps) come from the contract. */
export const GUIDE_CONTENT: Record<GuideSlug, ReactNode> = {
  'battery-health': (
    <>
      <p>
        A laptop battery wears a little with every charge. Its <strong>health</strong> is how much it holds
        now compared with what it held new: the <em>full charge capacity</em> divided by the{' '}
        <em>design capacity</em>. A battery at 80% runs for roughly four fifths of the time it did when new.
        Its <strong>cycle count</strong> is how many full charges it has been through (two charges from 50% to
        100% make one cycle).
      </p>
      <h2>How to read it</h2>
      <ul>
        <li>
          <strong>Windows</strong>: open Command Prompt and run <code>powercfg /batteryreport</code>. Open the
          battery-report.html it writes; under “Installed batteries”, divide FULL CHARGE CAPACITY by DESIGN
          CAPACITY. CYCLE COUNT is beside them (some makers leave it blank).
        </li>
        <li>
          <strong>macOS</strong>: System Settings → Battery → the ⓘ beside Battery Health shows the Maximum
          Capacity. The cycle count is under System Information → Power (hold Option and choose System
          Information from the Apple menu).
        </li>
        <li>
          <strong>Linux</strong>: run <code>upower -i $(upower -e | grep BAT)</code> and divide energy-full by
          energy-full-design; the “capacity” line is that figure already.
        </li>
      </ul>
      <p>
        On a listing, figures read from a report file the seller uploaded say so, with the report's date
        (“read from the seller's report file of …”); figures the seller typed are shown as the seller's word.
        A report file can be edited by hand, so read the battery yourself at handover either way. Sellers make
        the report like this:
      </p>
      <ul>
        {BATTERY_REPORT_HOW_TO.map((how) => (
          <li key={how.source}>
            <strong>{how.system}</strong>: {how.steps}
          </li>
        ))}
      </ul>
      <h2>What is good</h2>
      <p>
        Our grades set a floor: {CONDITIONS.map((c) => `${c}: ${CONDITION_DEFINITIONS[c]}`).join(' ')} As a
        rule of thumb, 85% or more is a battery you will not think about for a while, 75–85% is fine for a
        laptop that mostly sits near a socket, and below 70% plan on a replacement (budget for it when you
        compare prices). Cycle counts matter less than health, but most batteries are rated for 300–1,000
        cycles, and recent MacBooks for 1,000.
      </p>
      <p>
        Two warnings no figure shows: a <strong>swollen battery</strong> (the case bulges, the trackpad clicks
        badly or the lid no longer sits flat) must be replaced before use, and a battery that reports healthy
        but drops from 30% to off in minutes is failing whatever the report says. Both are grounds to refuse
        the laptop at handover.
      </p>
    </>
  ),
  'handover-checklist': (
    <>
      <p>
        Meet somewhere public and lit, with a socket if you can (a café or a library), and give yourself ten
        minutes with the laptop switched on before you confirm anything. The deal page keeps the same
        checklist and a “Report a problem” button beside each item: if something is wrong, say so there before
        you mark the laptop received, and the payment waits.
      </p>
      <h2>Is it the laptop you paid for?</h2>
      <ul>
        <li>
          <strong>The serial number.</strong> Once you have paid, the deal page shows the last four characters
          of the serial number the seller gave. Compare them with the sticker under the laptop and with the
          one the system reports (Windows: <code>wmic bios get serialnumber</code> in Command Prompt, or the
          maker's support app; macOS: Apple menu → About This Mac).
        </li>
        <li>
          <strong>The specs.</strong> Processor, memory and storage as listed: Windows Settings → System →
          About and Storage; on a Mac, About This Mac.
        </li>
        <li>
          <strong>The battery.</strong> Read its health as our{' '}
          <Link to={paths.guide('battery-health')}>battery guide</Link> shows, and check it matches the
          listing.
        </li>
      </ul>
      <h2>Does everything work?</h2>
      <ul>
        <li>It starts from the seller's charger, and the charging light or icon comes on.</li>
        <li>
          The screen: a plain white and a plain black picture show dead pixels, bright patches at the edges
          and lines; tilt the lid to see that the picture does not flicker.
        </li>
        <li>Every key, in a text editor, and the trackpad's click and two-finger scroll.</li>
        <li>
          Each USB port with your phone's cable, the headphone socket, the speakers, the webcam and the
          microphone.
        </li>
        <li>Wi-Fi joins your phone's hotspot, and Bluetooth finds your phone.</li>
        <li>The body: hinges firm, no cracks, no bulge under the trackpad (a swollen battery).</li>
      </ul>
      <h2>Is it free of the last owner?</h2>
      <ul>
        <li>
          It starts to a fresh setup screen, not the seller's account. On a Mac, setup must not ask for
          someone else's Apple ID: that is Activation Lock, and the laptop is useless until the owner removes
          it.
        </li>
        <li>No firmware (BIOS) password is asked for when it starts.</li>
        <li>
          Work laptops: no “managed by your organisation” screen at setup (remote management the seller cannot
          remove).
        </li>
      </ul>
      <p>
        All good? Mark the laptop received on the deal page: the sale completes and the seller is paid. Not as
        described? Report the problem there instead; do not confirm and sort it out later.
      </p>
    </>
  ),
  pricing: (
    <>
      <p>
        The price guide says what laptops like yours <strong>sold for</strong> on Laptop Market in the last
        180 days: real payments, not asking prices, with refunded sales left out. “Like yours” means the same
        brand, memory and storage, and the same processor model (“i7-1165G7”, however it is written); when
        fewer than five such laptops sold, the same processor family (Core i7, Ryzen 7, M1 and so on) instead.
        With fewer than five sales either way, no range is shown rather than a misleading one.
      </p>
      <h2>Reading the range</h2>
      <p>
        The guide gives three prices: a quarter of those laptops sold for less than the first, half for less
        than the middle one (the median), and three quarters for less than the last. On the listing form it
        appears as soon as you fill in the brand, processor, RAM and storage. Buyers see the same figures: a
        price at or under the lower figure is marked “Great price”, one up to the upper figure “Fair price”.
      </p>
      <h2>Pricing your laptop</h2>
      <ul>
        <li>
          Start at the median and move with the condition: an Excellent laptop with a strong battery can ask
          toward the upper figure; a Fair one, or one whose battery needs replacing soon, belongs near the
          lower.
        </li>
        <li>
          Add for what the guide does not see: a charger and box, a warranty still running, a recent battery
          or an upgraded screen. Take off for what a buyer will have to pay for.
        </li>
        <li>
          Remember the marketplace's fee comes out of the price when it sells: the form shows what you will
          receive before you list.
        </li>
        <li>
          A listing well above the upper figure can still sell, but expect offers. Listings expire if unsold;
          if yours gets views but no bookings, lowering the price is usually the answer.
        </li>
      </ul>
      <h2>Judging a price as a buyer</h2>
      <p>
        The guide is a range for the specs, not for this laptop. Compare the condition grade, battery health
        (from a report file or typed), the seller's reviews and what is included, then make an offer if the
        price sits above the range for what you see.
      </p>
    </>
  ),
  'wiping-a-laptop': (
    <>
      <p>
        Before a laptop leaves you, it should hold nothing of yours and be tied to none of your accounts. Do
        it in this order, and do it before the handover: a buyer who meets an old account or a lock screen
        will rightly refuse the laptop.
      </p>
      <h2>1. Back up</h2>
      <p>
        Copy what you want to keep to another computer, an external disk or a cloud service, and check that
        you can open the copies. Browser passwords, authenticator apps and licence keys are the things people
        forget.
      </p>
      <h2>2. Sign out of what locks the laptop to you</h2>
      <ul>
        <li>
          <strong>Mac</strong>: System Settings → your name → Sign Out of your Apple ID, which turns off Find
          My and Activation Lock. Sign out of Music or iTunes purchases and any app licences (Adobe, Microsoft
          365).
        </li>
        <li>
          <strong>Windows</strong>: sign out of OneDrive and app licences, then remove the laptop from your
          Microsoft account's device list (account.microsoft.com/devices) so Find my device no longer shows
          it.
        </li>
        <li>Remove any firmware (BIOS) password you set, and unpair Bluetooth devices you keep.</li>
      </ul>
      <h2>3. Erase and reinstall</h2>
      <ul>
        <li>
          <strong>Mac with Apple silicon or a T2 chip</strong> (macOS Monterey or later): System Settings →
          General → Transfer or Reset → Erase All Content and Settings. It erases the encrypted disk in
          seconds and leaves macOS ready for the next owner.
        </li>
        <li>
          <strong>Older Mac</strong>: start in macOS Recovery, erase the disk with Disk Utility, then choose
          Reinstall macOS.
        </li>
        <li>
          <strong>Windows 10 and 11</strong>: Settings → System → Recovery → Reset this PC → Remove
          everything, and turn on the option to clean the drive (“Clean data”). It takes longer, and makes
          your files unrecoverable rather than just deleted.
        </li>
        <li>
          <strong>Chromebook</strong>: sign out, then press Ctrl + Alt + Shift + R and choose Powerwash.
        </li>
        <li>
          <strong>Linux</strong>: reinstall your distribution over the whole disk, choosing to encrypt it, or
          use your disk's secure-erase tool.
        </li>
      </ul>
      <p>
        On a solid-state drive, the reset or secure erase above is the right way to wipe: tools that overwrite
        a disk several times were made for spinning disks and do not reach every cell of an SSD.
      </p>
      <h2>4. Check</h2>
      <p>
        Start the laptop: it should reach the first setup screen (“Hello”, the language choice) and ask for no
        account of yours. Leave it there for the buyer, with the charger. Then note the serial number on your
        listing: the buyer checks it at <Link to={paths.guide('handover-checklist')}>handover</Link>.
      </p>
    </>
  ),
}
