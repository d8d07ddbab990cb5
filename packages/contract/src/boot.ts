import type { AppInfo, SessionUser } from './auth.js';
/**
 * What the server writes into the page it serves (a `<script type="application/json">` with this id), so the app
 * starts without asking for it: the signed-in user (or null) and the app's info. Never a secret: the page is the
 * user's own, and is not stored (`cache-control: no-store`).
 */
export const BOOT_DATA_ELEMENT_ID = 'ce-boot';
export interface BootData {
  /** Absent when the server could not read the session: the app asks for it (and says so if that fails too). */
  user?: SessionUser | null;
  appInfo: AppInfo;
}
