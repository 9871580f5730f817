// Runs before each server test file (Vitest `setupFiles` of the `server` and `server-postgres` projects).
import { setPasswordHashCost } from '#server/db/password-hash'

// Password hashes at a sixteenth of the instances' cost: each took 140 ms of a core and a run of the suites made about
// a thousand. A hash says its cost, so one made at the instances' (the admin command's, run as a child process) still
// reads (docs/decisions/0135-cheaper-password-hashes-in-tests.md).
setPasswordHashCost(1_024)
