import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { AppConfig } from '../config/config.js';
import { loggerOptions } from './logging.js';
import { PressureGate } from './pressure.js';
import { registerRequestTimeouts } from './request-timeouts.js';
import { registerTextAtTheDoor } from './text-at-the-door.js';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

/** The request's id: the caller's `x-request-id` when well formed (a proxy's, to follow one request), else a new one. */
function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}

/**
 * The Fastify app over its HTTP server: shedding past the knee in the server's own handler (decision 0036), the
 * logger, proxies trusted, the socket's backstop timeouts, request ids, and the zod type provider.
 */
export function createServer(config: AppConfig, logDestination: DestinationStream | undefined) {
  // Shedding past the knee happens in the HTTP server's own handler, before Fastify reads a request (decision 0036).
  const gate = new PressureGate(config.pressure, ['/api/', ...Object.values(config.compatPrefixes)], requestIdOf);
  const app = Fastify({
    serverFactory: gate.serverFactory(),
    logger: logDestination
      ? { ...loggerOptions(config.logLevel, config.instanceId), stream: logDestination }
      : loggerOptions(config.logLevel, config.instanceId),
    // A hop count trusts that many proxies nearest the server; addresses trust those proxies only.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Backstops at the socket (an upload is the longest a request may take to arrive, or stay silent);
    // each route's body has its own, shorter limit (registerRequestTimeouts).
    requestTimeout: config.requestTimeouts.uploadMs,
    connectionTimeout: config.requestTimeouts.uploadMs,
    requestIdHeader: 'x-request-id',
    genReqId: requestIdOf,
  }).withTypeProvider<ZodTypeProvider>();
  // Headers arrive within the request limit, whatever the route.
  app.server.headersTimeout = Math.min(config.requestTimeouts.requestMs, config.requestTimeouts.uploadMs);
  registerRequestTimeouts(app, config.requestTimeouts);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Text the database cannot store is refused before any handler of the API or the original calls runs.
  registerTextAtTheDoor(app, ['/api/', ...Object.values(config.compatPrefixes)]);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  return { app, gate };
}
