import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { restrictNewFiles } from './core/data-dir.js';
import {
  jobsThreadInstanceId,
  JobsThread,
  runsJobsOnThread,
  serveJobsThread,
  tellJobsThreadFailed,
} from './core/jobs-thread.js';
import { databaseFault } from './core/database-faults.js';
import { nodeRefusal } from './core/node-version.js';

/**
 * A promise a library left unawaited that rejects because the database is away must not end the instance (it
 * outlives an outage and serves again by itself); any other is a bug, and ends the process as Node would.
 */
function outliveDatabaseFaults(log: { warn(object: object, message: string): void }): void {
  process.on('unhandledRejection', (reason) => {
    if (databaseFault(reason))
      return log.warn({ err: reason }, 'an unawaited database call failed: the database is away');
    console.error(reason);
    process.exit(1);
  });
}

/** An instance's jobs thread (decision 0035): the same configuration and id, jobs only, no listening. */
async function jobsThread(instanceId: string): Promise<void> {
  const config = { ...loadConfig(), instanceId };
  const { app, metrics, queue } = await buildApp(config, { jobsThread: true });
  outliveDatabaseFaults(app.log);
  serveJobsThread({ metrics, wake: (name) => queue.wake(name), stop: () => app.close() });
}

async function main(): Promise<void> {
  // A Node outside the supported range may seem to run, then fail later (the jobs thread cannot load the code).
  const refusal = nodeRefusal();
  if (refusal) {
    console.error(refusal);
    process.exit(2);
  }
  // Everything this process writes (the embedded database, key files) is readable by its user only.
  restrictNewFiles();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  // People are answered on this thread; on PostgreSQL the instance's jobs run on a thread of their own at a lower
  // CPU priority, started from this same entry point.
  const separateJobs = runsJobsOnThread(config);
  const built = await buildApp(separateJobs ? { ...config, workersEnabled: false } : config);
  const { app } = built;
  outliveDatabaseFaults(app.log);
  const jobs = separateJobs ? new JobsThread(process.argv[1] ?? '', config.instanceId, app.log) : null;
  if (jobs) {
    built.metrics.include(() => jobs.metrics());
    built.queue.onSent((name) => jobs.wake(name));
    built.readiness.add({ name: 'jobs', state: () => jobs.state() });
    jobs.start();
  }
  if (config.env === 'production' && config.trustProxy === false) {
    // Without it, every user behind the proxy shares one address for sign-in throttling, and cookies never get Secure.
    app.log.warn(
      'NODE_ENV=production without TRUST_PROXY: behind a reverse proxy, set TRUST_PROXY to the number of proxies (1) or their addresses',
    );
  }
  await app.listen({ host: config.host, port: config.port });

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  const lines = [`CE Toolkit is running at ${url}`];
  if (config.demoMode) {
    lines.push(
      'DEMO MODE (the embedded default): demo accounts, and the sandbox of the external systems with its',
      'readable mail outbox. Not for real users: set DEMO_MODE=false (see the production checklist in docs/operating.md).',
    );
    lines.push(
      `Sign in as tam@demo.local (or superuser@, proserv@, adoption@, pmo@, engineering@, support@, t3@, user@demo.local)`,
    );
    lines.push(`with the password from DEMO_PASSWORD (default: demo-password).`);
  } else {
    lines.push('Create accounts with: npm run user -- add EMAIL --role TAM --name "Full Name"');
  }
  if (config.platformApiUrl === null) lines.push(`Sandbox of the external systems: ${url}/sandbox`);
  if (config.databaseUrl === null && config.tokenKeys === null)
    lines.push(`Keys of this installation (keep them out of backups of ${config.dataDir}): ${config.secretsDir}`);
  console.log(`\n${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 5000);
    force.unref();
    Promise.all([app.close(), jobs?.stop()])
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const jobsOf = jobsThreadInstanceId();
(jobsOf === null ? main() : jobsThread(jobsOf)).catch((error: unknown) => {
  console.error(error);
  if (jobsOf !== null) tellJobsThreadFailed(error);
  process.exit(1);
});
