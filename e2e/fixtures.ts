import { test as base, type BrowserContext, type Page, type ViewportSize } from '@playwright/test';

// Everything else as Playwright has it; `test` below takes the place of Playwright's own.
export * from '@playwright/test';

/** A worker's warm browser context and the page that keeps the site's renderer process alive between tests. */
interface Warm {
  context: BrowserContext;
  keeper: Page;
  viewport: ViewportSize | null;
}

/**
 * Playwright's `test`, with one browser context per worker that tests take turns in, instead of a new one each.
 *
 * A page in a new context starts a new renderer process, which parses and compiles the web app from nothing:
 * measured here, about 1.9 s of Chromium's CPU per page load, against 1.1 s in a context whose renderer already
 * holds the app (`--process-per-site` puts every page of the site in that one process; a page of the site that runs
 * no script keeps it alive). On two cores that CPU is most of the browser tests' time.
 *
 * Each test still starts as a stranger: when it ends, its pages close and the context forgets its cookies (the
 * session), permissions and routes, and the site's storage is emptied. The HTTP cache stays, as in anyone's browser
 * (what is cacheable never changes: the app's hashed assets, a gallery dashboard's screenshots). A test that asks
 * for context options of its own (a time zone, a locale) gets a new context of its own; a test that asks for another
 * viewport gets its page at that size.
 * Tests that need several people at once open contexts of their own (`browser.newContext()`).
 */
export const test = base.extend<object, { warm: Warm }>({
  warm: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, reducedMotion, viewport = DESKTOP } = workerInfo.project.use;
      const context = await browser.newContext({ ...AS_PLAYWRIGHT, baseURL, reducedMotion, viewport });
      const keeper = await context.newPage();
      // A document of the site that runs nothing: it holds the renderer process, and reaches the site's storage.
      await keeper.goto('/api/app-info');
      await use({ context, keeper, viewport });
      await context.close();
    },
    { scope: 'worker' },
  ],

  context: async (
    {
      warm,
      browser,
      baseURL,
      reducedMotion,
      viewport,
      timezoneId,
      locale,
      colorScheme,
      isMobile,
      hasTouch,
      storageState,
      offline,
    },
    use,
  ) => {
    const asked = { timezoneId, locale, colorScheme, isMobile, hasTouch, storageState, offline };
    if (JSON.stringify(asked) !== JSON.stringify({ ...asked, ...AS_PLAYWRIGHT })) {
      const context = await browser.newContext({ ...asked, baseURL, reducedMotion, viewport });
      await use(context);
      await context.close();
      return;
    }
    await use(warm.context);
    await forget(warm);
  },

  page: async ({ context, viewport, warm }, use) => {
    const page = await context.newPage();
    if (context === warm.context && viewport && !sameSize(viewport, warm.viewport))
      await page.setViewportSize(viewport);
    await use(page);
  },
});

/** Playwright's viewport when a project names none. */
const DESKTOP = { width: 1280, height: 720 };

/** The context options Playwright gives a test that asks for nothing else (the warm context is made with them). */
const AS_PLAYWRIGHT = {
  timezoneId: undefined,
  locale: 'en-US',
  colorScheme: 'light',
  isMobile: false,
  hasTouch: false,
  storageState: undefined,
  offline: false,
} as const;

const sameSize = (a: ViewportSize, b: ViewportSize | null) => a.width === b?.width && a.height === b.height;

/** Leaves the warm context as a new one would be, but for its HTTP cache and its renderer process. */
async function forget({ context, keeper }: Warm): Promise<void> {
  await Promise.all(
    context
      .pages()
      .filter((page) => page !== keeper)
      .map((page) => page.close()),
  );
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.clearCookies();
  await context.clearPermissions();
  await keeper.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
}
