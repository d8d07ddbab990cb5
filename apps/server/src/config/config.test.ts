import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig, VENDOR_API_URL } from './config.js';

const KEY = 'q2Qe4nGm0mO3cWb0w0F7GQ3S9lZ3v4w0cD0s7cJ8m3E=';
const OTHER_KEY = 'Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC1rZXktMzI=';
const SECRET = 'a-cookie-secret-of-at-least-32-characters';
const postgres = { DATABASE_URL: 'postgres://db/ce', REPORTS_KEY: KEY, COOKIE_SECRET: SECRET };
const production = {
  NODE_ENV: 'production',
  DEMO_MODE: 'false',
  PLATFORM_API_URL: 'https://api.example.com/v7',
  SMTP_URL: 'smtp://mail.example.com',
  REPORTS_KEY: KEY,
  COOKIE_SECRET: SECRET,
};

/** The problems a configuration is refused with. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

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
      trustProxy: false,
      retentionDays: 90,
      passwordResetEnabled: true,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('keeps the keys beside DATA_DIR, never inside it', () => {
    expect(loadConfig({ DATA_DIR: '/srv/ce/data' }).secretsDir).toBe('/srv/ce/data.keys');
    expect(loadConfig({ DATA_DIR: '/srv/ce/data', SECRETS_DIR: '/etc/ce' }).secretsDir).toBe('/etc/ce');
    expect(problemsOf({ DATA_DIR: '/srv/ce/data', SECRETS_DIR: '/srv/ce/data/keys' })).toEqual([
      expect.stringMatching(/^SECRETS_DIR=.*must be outside DATA_DIR/),
    ]);
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
    expect(() => loadConfig({ REPORTS_KEY_PREVIOUS: 'short' })).toThrow(/REPORTS_KEY_PREVIOUS/);
  });

  it('turns demo mode off on PostgreSQL and refuses to turn it on there', () => {
    expect(loadConfig(postgres).demoMode).toBe(false);
    expect(problemsOf({ ...postgres, DEMO_MODE: 'true' })).toEqual([expect.stringMatching(/^DEMO_MODE=true/)]);
    expect(problemsOf({ ...postgres, DEMO_MODE: 'true', NODE_ENV: 'development' })).toHaveLength(1);
    expect(loadConfig({ DEMO_MODE: 'false' }).demoMode).toBe(false);
  });

  it('lets the browser tests run the demo on a throwaway PostgreSQL database (NODE_ENV=test only)', () => {
    expect(loadConfig({ ...postgres, DEMO_MODE: 'true', NODE_ENV: 'test' }).demoMode).toBe(true);
  });

  it('outside demo mode there is no sandbox: the platform is the vendor API unless configured', () => {
    expect(loadConfig({ DEMO_MODE: 'false' }).platformApiUrl).toBe(VENDOR_API_URL);
    expect(loadConfig({ DEMO_MODE: 'false', PLATFORM_API_URL: 'https://te.example/v7' }).platformApiUrl).toBe(
      'https://te.example/v7',
    );
  });

  it('refuses PostgreSQL without the keys every instance must share, naming them', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://db/ce' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^REPORTS_KEY="": required on PostgreSQL/);
    expect(problems[1]).toMatch(/^COOKIE_SECRET="": required on PostgreSQL/);
  });

  it('refuses production with demo mode, or without the platform, mail or keys, naming each variable', () => {
    expect(problemsOf(production)).toEqual([]);
    expect(problemsOf({ NODE_ENV: 'production' }).map((problem) => problem.split('=')[0])).toEqual([
      'DEMO_MODE',
      'PLATFORM_API_URL',
      'SMTP_URL',
      'REPORTS_KEY',
      'COOKIE_SECRET',
    ]);
    for (const name of ['PLATFORM_API_URL', 'SMTP_URL', 'REPORTS_KEY', 'COOKIE_SECRET'] as const) {
      const { [name]: _removed, ...rest } = production;
      expect(problemsOf(rest), name).toEqual([expect.stringMatching(new RegExp(`^${name}=""`))]);
    }
    expect(problemsOf({ ...production, DEMO_MODE: 'true' })).toEqual([expect.stringMatching(/^DEMO_MODE=true/)]);
    const { SMTP_URL: _smtp, ...withoutMail } = production;
    expect(problemsOf({ ...withoutMail, PASSWORD_RESET_ENABLED: 'false' })).toEqual([]);
  });

  it('accepts a hop count or proxy addresses for TRUST_PROXY, never "trust every hop"', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: '2001:db8::/32' }).trustProxy).toEqual(['2001:db8::/32']);
    expect(problemsOf({ TRUST_PROXY: 'true' })).toEqual([
      expect.stringMatching(/^TRUST_PROXY="true": trusts every hop/),
    ]);
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/99' })).toEqual([expect.stringMatching(/^TRUST_PROXY=/)]);
    expect(problemsOf({ TRUST_PROXY: 'proxy.local' })).toEqual([expect.stringMatching(/^TRUST_PROXY=/)]);
  });

  it('takes the token keys from REPORTS_KEY, REPORTS_KEY_PREVIOUS and the retired ids of REPORTS_KEY_RETIRED', () => {
    expect(loadConfig({ REPORTS_KEY: KEY, REPORTS_KEY_PREVIOUS: OTHER_KEY }).tokenKeys).toEqual({
      current: KEY,
      previous: [OTHER_KEY],
      retired: [],
    });
    expect(
      loadConfig({ REPORTS_KEY: KEY, REPORTS_KEY_RETIRED: '0123456789ab,ba9876543210' }).tokenKeys?.retired,
    ).toEqual(['0123456789ab', 'ba9876543210']);
    expect(() => loadConfig({ REPORTS_KEY: KEY, REPORTS_KEY_RETIRED: 'not-an-id' })).toThrow(/REPORTS_KEY_RETIRED/);
    expect(problemsOf({ REPORTS_KEY_PREVIOUS: OTHER_KEY })).toEqual([expect.stringMatching(/^REPORTS_KEY=""/)]);
  });
});

describe('the configuration page', () => {
  it('mounts each original service under a prefix of its own, outside the API and the sandbox', () => {
    expect(loadConfig({}).compatPrefixes).toEqual({
      reports: '/compat/reports/',
      dashboards: '/compat/dashboards/',
      tracker: '/compat/tracker/',
      api: '/compat/api/',
    });
    expect(loadConfig({ COMPAT_REPORTS_PREFIX: '/reports-service/' }).compatPrefixes.reports).toBe('/reports-service/');
    expect(problemsOf({ COMPAT_REPORTS_PREFIX: 'reports' })).toEqual([
      expect.stringMatching(/^COMPAT_REPORTS_PREFIX="reports": a path that starts and ends with "\/"/),
    ]);
    expect(problemsOf({ COMPAT_API_PREFIX: '/api/old/' })).toEqual([
      expect.stringMatching(/^COMPAT_API_PREFIX="\/api\/old\/": a path outside \/api\/ and \/sandbox\//),
    ]);
    expect(problemsOf({ COMPAT_TRACKER_PREFIX: '/compat/reports/tracker/' })).toEqual([
      'COMPAT_TRACKER_PREFIX="/compat/reports/tracker/": must not be inside, or hold, COMPAT_REPORTS_PREFIX (/compat/reports/)',
    ]);
  });

  it('keeps half of each platform window for background work unless PLATFORM_BACKGROUND_SHARE says otherwise', () => {
    expect(loadConfig({}).platformBackgroundShare).toBe(0.5);
    expect(loadConfig({ PLATFORM_BACKGROUND_SHARE: '0.3' }).platformBackgroundShare).toBe(0.3);
    expect(problemsOf({ PLATFORM_BACKGROUND_SHARE: '1.5' })).toHaveLength(1);
  });

  it('docs/configuration.md documents every variable the configuration reads', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    const missing = CONFIG_VARIABLES.filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
