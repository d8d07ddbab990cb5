import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to the embedded setup: 127.0.0.1:3000, ./data, PGlite, demo mode, the sandbox', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      databaseUrl: null,
      demoMode: true,
      demoPassword: 'demo-password',
      platformApiUrl: null,
      provisionedTestsBaseline: 8589,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('honours PORT, HOST and DATA_DIR', () => {
    const config = loadConfig({ PORT: '8080', HOST: '0.0.0.0', DATA_DIR: '/srv/ce' });
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: '/srv/ce' });
  });

  it('stops on a bad value and names the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SUPPORT_EMAIL: 'nope' })).toThrow(/SUPPORT_EMAIL/);
    expect(() => loadConfig({ DEMO_MODE: 'maybe' })).toThrow(/DEMO_MODE/);
  });

  it('turns demo mode off on PostgreSQL and refuses to turn it on there', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/ce' }).demoMode).toBe(false);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/ce', DEMO_MODE: 'true' })).toThrow(/DEMO_MODE/);
    expect(loadConfig({ DEMO_MODE: 'false' }).demoMode).toBe(false);
  });
});
