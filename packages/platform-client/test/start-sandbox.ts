import Fastify from 'fastify';
import { Sandbox, sandboxPlugin, type SandboxConfig } from '@ce/sandbox';

/** The sandbox on a real loopback port, as the client meets the platform: over HTTP. */
export async function startSandbox(config: SandboxConfig = {}) {
  const sandbox = new Sandbox(config);
  const app = Fastify({ logger: false });
  await app.register(sandboxPlugin, { prefix: '/sandbox', sandbox, demoMode: true });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const tokens = sandbox.platform.world.tokens;
  const token = (kind: 'org-admin' | 'read-only' | 'revoked', index = 0) => {
    const found = tokens.filter((candidate) => candidate.kind === kind)[index];
    if (!found) throw new Error(`no ${kind} token`);
    return found.token;
  };
  return {
    sandbox,
    origin,
    baseUrl: `${origin}/sandbox/te/v7`,
    token,
    setScenario: (scenario: Record<string, unknown>) =>
      fetch(`${origin}/sandbox/te/scenario`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(scenario),
      }),
    close: () => app.close(),
  };
}
