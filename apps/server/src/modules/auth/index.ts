/** What other modules may use of the auth module: sessions and the browser's side of starting one. */
export { clientInfo, refuseWhenSignedIn, SSO_ID_TOKEN_COOKIE, startBrowserSession } from './browser-session.js';
export { accountMayHoldSession, AuthService, hashSecret, type ClientInfo } from './auth.service.js';
