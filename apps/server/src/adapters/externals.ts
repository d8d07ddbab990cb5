import type { FastifyInstance } from 'fastify';
import { PlatformClient, type AmbientCall, type PlatformObserver, type RateBudgets } from '@ce/platform-client';
import { Sandbox, SALESFORCE_API_VERSION, sandboxPlugin } from '@ce/sandbox';
import type { AppConfig } from '../config/config.js';
import { injectFetch } from './inject-fetch.js';
import { noMailer, outboxMailer, smtpMailer, type Mailer } from './mailer.js';
import { SalesforceClient } from './salesforce-client.js';
import { WebexClient } from './webex-client.js';

/** Cisco's published unified OpenAPI document of the platform API v7. */
export const VENDOR_OPENAPI_URL =
  'https://pubhub.devnetcloud.com/media/000-v7-apis/docs/reference/unified-oas/api.yaml';

/** Where the embedded clients reach the sandbox: in-process, never over the network. */
const EMBEDDED_SANDBOX_ORIGIN = 'http://sandbox.internal';

export interface Externals {
  /** The stand-ins of the external systems, in demo mode with PLATFORM_API_URL unset. */
  sandbox: Sandbox | null;
  platform: PlatformClient;
  /** Report delivery; null when neither WEBEX_API_URL nor the sandbox is there. */
  webex: WebexClient | null;
  mailer: Mailer;
  /** Where the API explorer reads the platform's OpenAPI document, and how. */
  openApi: { url: string; fetch?: typeof fetch };
  /** The CRM for the time tracker; null when SALESFORCE_LOGIN_URL is unset outside demo mode. */
  crm: SalesforceClient | null;
}

/**
 * The clients of the systems the product talks to: the monitoring platform, Webex and mail. In demo
 * mode (and only there) their stand-ins are mounted at /sandbox and reached in-process: outside it, a
 * readable outbox would hand anyone the reset codes of every account.
 */
export interface ExternalsOptions {
  /** The product's clock; the sandbox's world is spread back from it. */
  clock?: () => Date;
  /** Where the organizations' rate budgets live: this process by default, the database when shared. */
  limiters?: RateBudgets;
  observer?: PlatformObserver;
  /** What each platform session made while a person's request is answered adds to it (core/budget-waits.ts). */
  ambient?: () => AmbientCall | undefined;
}

export async function connectExternals(
  app: FastifyInstance,
  config: AppConfig,
  { clock, limiters, observer, ambient }: ExternalsOptions = {},
): Promise<Externals> {
  const sandbox =
    config.demoMode && config.platformApiUrl === null
      ? new Sandbox({
          ...config.sandbox,
          webexBotToken: config.webex.botToken,
          worldNow: clock?.().getTime(),
          // The share links it makes (test snapshots) are opened by people, at the product's address.
          publicUrl: config.publicUrl,
        })
      : null;
  if (sandbox) await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: config.demoMode });
  const inProcess = sandbox ? injectFetch(app, EMBEDDED_SANDBOX_ORIGIN) : undefined;

  const platform = new PlatformClient({
    baseUrl: config.platformApiUrl ?? `${EMBEDDED_SANDBOX_ORIGIN}/sandbox/te/v7`,
    timeoutMs: config.platformTimeoutMs,
    retryBudgetMs: config.platformRetryBudgetMs,
    rateLimitWaitBudgetMs: config.platformRateLimitWaitMs,
    backgroundShare: config.platformBackgroundShare,
    scheduledShare: config.platformScheduledShare,
    lanes: config.platformLanes,
    fetch: inProcess,
    logger: app.log,
    limiters,
    observer,
    ambient,
  });
  const webexUrl = config.webex.apiUrl ?? (sandbox ? `${EMBEDDED_SANDBOX_ORIGIN}/sandbox/webex` : null);
  const webex = webexUrl
    ? new WebexClient({
        baseUrl: webexUrl,
        botToken: config.webex.botToken ?? sandbox?.webexBotToken ?? '',
        fetch: config.webex.apiUrl ? undefined : inProcess,
      })
    : null;
  const mailer = config.mail.smtpUrl
    ? smtpMailer(config.mail.smtpUrl, config.mail.from)
    : sandbox
      ? outboxMailer(sandbox.mail)
      : noMailer;
  const { salesforce } = config;
  const crm = salesforce.loginUrl
    ? new SalesforceClient({
        loginUrl: salesforce.loginUrl,
        clientId: salesforce.clientId ?? '',
        clientSecret: salesforce.clientSecret ?? '',
        apiVersion: salesforce.apiVersion,
      })
    : sandbox
      ? new SalesforceClient({
          loginUrl: `${EMBEDDED_SANDBOX_ORIGIN}/sandbox/salesforce`,
          clientId: salesforce.clientId ?? 'ce-toolkit-demo',
          clientSecret: salesforce.clientSecret ?? 'ce-toolkit-demo',
          apiVersion: SALESFORCE_API_VERSION,
          fetch: inProcess,
        })
      : null;
  const openApi = config.platformOpenApiUrl
    ? { url: config.platformOpenApiUrl }
    : sandbox
      ? { url: `${EMBEDDED_SANDBOX_ORIGIN}/sandbox/te/openapi.json`, fetch: inProcess }
      : { url: VENDOR_OPENAPI_URL };
  return { sandbox, platform, webex, mailer, crm, openApi };
}
