import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { SharedThrottle } from './shared-throttle.js';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { AppConfig } from '../config/config.js';
import { AppError } from './errors.js';
import type { PressureGate, PressureGuard } from './pressure.js';

/** Operations anyone may call that take credentials or send mail: limited per address before anything else. */
const RATE_LIMITED_OPERATIONS = new Set([
  'login',
  'completeNewPassword',
  'requestPasswordReset',
  'confirmPasswordReset',
  'startSso',
  'finishSso',
]);

/**
 * Shedding past the knee first (before anything reads the request: decision 0036), then cookies, security headers
 * (CSP), the per-address limit on credential operations, and the API document.
 */
export async function registerPlugins(
  app: FastifyInstance,
  config: AppConfig,
  throttle: SharedThrottle,
  gate: PressureGate,
): Promise<PressureGuard> {
  gate.register(app);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // React sets style properties through the DOM, which the policy allows; no inline <style> or style="".
        styleSrc: ["'self'"],
        scriptSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(fastifyRateLimit, {
    max: config.publicRateLimitPerMinute,
    timeWindow: 60_000,
    // Counted in the database: every instance draws on one count per address.
    store: throttle.storeClass(60_000),
    allowList: (request) => !RATE_LIMITED_OPERATIONS.has(String(request.routeOptions.schema?.operationId ?? '')),
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        'rate_limited',
        `Too many requests from this address. Try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`,
      ),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'CE Toolkit API',
        version: '0.1.0',
        description:
          'Every operation of the CE Toolkit server. State-changing calls need the `x-csrf-token` header echoing the `ce_csrf` cookie.',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'ce_session' } },
      },
      security: [{ session: [] }],
    },
    // Upload routes read their multipart parts themselves; the document still describes the form, so a
    // generated client can call them.
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const form = (input.route.config as { uploadForm?: Record<string, unknown> } | undefined)?.uploadForm;
      return form
        ? { ...transformed, schema: { ...transformed.schema, body: { type: 'object', ...form } } }
        : transformed;
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  return gate;
}
