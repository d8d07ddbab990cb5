export { Sandbox, sandboxPlugin, type SandboxConfig, type SandboxOptions } from './sandbox-plugin.js';
export { generateWorld, type World, type WorldSize } from './platform/generator.js';
export { PlatformState, DEFAULT_SCENARIO, type Scenario, type WindowRecord } from './platform/state.js';
export {
  WORLD_CHANGES,
  type WorldChange,
  type WorldChangeRequest,
  type WorldChangeResult,
} from './platform/world-changes.js';
export { MailOutbox, type MailMessage } from './mail/mail-routes.js';
export {
  SANDBOX_BOT_EMAIL,
  WebexState,
  WEBEX_TEXT_LIMIT_BYTES,
  type WebexMembership,
  type WebexMessage,
  type WebexRoom,
} from './webex/webex-state.js';
export { SalesforceState, SALESFORCE_API_VERSION, type SalesforceTask } from './salesforce/salesforce-routes.js';
