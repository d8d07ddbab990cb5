import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { Sandbox, sandboxPlugin } from '../src/index.js';

/** A sandbox in demo mode mounted at /sandbox for the suite, reset before each test. */
export function demoSandbox() {
  let app: FastifyInstance | undefined;
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = new Sandbox({
      webexBotToken: 'bot-token',
      salesforceClientId: 'client',
      salesforceClientSecret: 'secret',
    });
    app = Fastify({ logger: false });
    await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => sandbox?.reset());
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the sandbox is used before its set-up ran');
    return value;
  };
  return { app: () => ready(app), sandbox: () => ready(sandbox) };
}
