import { useEffect } from 'react'
import { Toaster } from 'react-hot-toast'
import { onToasterMounted } from '../lib/toast'

/** Toasts: success 2 s, error and default 4 s. react-hot-toast shows at most 20 at once by default. */
const TOAST_OPTIONS = {
  duration: 4000,
  success: { duration: 2000 },
  error: { duration: 4000 },
}

export function AppToaster() {
  useEffect(onToasterMounted, [])
  return <Toaster position="top-center" toastOptions={TOAST_OPTIONS} />
}
