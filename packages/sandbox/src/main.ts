// `npm run sandbox`: the stand-ins of the external systems (platform API v7, Webex, the CRM, the mail outbox)
// alone on a port, so several instances of the product can share one platform and its rate limit.
//   SANDBOX_PORT (4010), SANDBOX_HOST (127.0.0.1), SANDBOX_SEED, SANDBOX_SIZE, SANDBOX_RATE_LIMIT,
//   WEBEX_BOT_TOKEN (the one token Webex accepts; printed when generated).
// Point the instances at it with PLATFORM_API_URL=<address>/sandbox/te/v7, WEBEX_API_URL=<address>/sandbox/webex
// and WEBEX_BOT_TOKEN, SALESFORCE_LOGIN_URL=<address>/sandbox/salesforce. Counters: GET <address>/sandbox/te/stats.
import Fastify from 'fastify';
import { Sandbox, sandboxPlugin } from './sandbox-plugin.js';

const env = process.env;
const size = env.SANDBOX_SIZE === 'large' ? 'large' : 'demo';
const sandbox = new Sandbox({
  seed: env.SANDBOX_SEED ?? 'ce-toolkit',
  size,
  rateLimitPerMinute: Number(env.SANDBOX_RATE_LIMIT ?? 240),
  webexBotToken: env.WEBEX_BOT_TOKEN ?? null,
  salesforceClientId: env.SALESFORCE_CLIENT_ID ?? null,
  salesforceClientSecret: env.SALESFORCE_CLIENT_SECRET ?? null,
});
const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
const address = await app.listen({ port: Number(env.SANDBOX_PORT ?? 4010), host: env.SANDBOX_HOST ?? '127.0.0.1' });
console.log(`Sandbox of the external systems running at ${address}/sandbox`);
console.log(`  PLATFORM_API_URL=${address}/sandbox/te/v7`);
console.log(`  WEBEX_API_URL=${address}/sandbox/webex  WEBEX_BOT_TOKEN=${sandbox.webexBotToken}`);
console.log(`  SALESFORCE_LOGIN_URL=${address}/sandbox/salesforce`);
console.log(`  counters: ${address}/sandbox/te/stats`);
const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
