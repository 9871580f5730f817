import { Outlet } from 'react-router'
import { PublicFrame } from './public-frame'

/** The public pages' layout in the full app: the frame around the matched page. */
export function PublicLayout() {
  return (
    <PublicFrame>
      <Outlet />
    </PublicFrame>
  )
}
