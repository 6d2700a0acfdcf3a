import axe from 'axe-core';
import type { Page } from 'playwright-core';

type Theme = 'light' | 'dark';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the bar every screen must clear. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** What fails the gate; moderate and minor findings are left to review. */
const BLOCKING = new Set(['serious', 'critical']);

type Finding = { id: string; impact: string; help: string; nodes: string[] };

/** Longer than any delay before a transition starts (a tooltip opens 100 ms after the pointer). */
const QUIET_MS = 150;

const stillMoving = (page: Page) =>
  page.evaluate(() =>
    document
      .getAnimations()
      .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity),
  );

/**
 * Waits until no finite animation or transition (a dialog opening, a colour fading) runs, and
 * none has started a moment later: a tooltip the last tap brings appears after a delay, and a
 * check made before it fades in would read its colours half-way.
 */
export async function settle(page: Page): Promise<void> {
  for (;;) {
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    );
    await page.waitForTimeout(QUIET_MS);
    if (!(await stillMoving(page))) return;
  }
}

/** Turns off CSS transitions while the theme flips (added and removed around it). */
const STILL_CSS = '*, *::before, *::after { transition: none !important; }';

/** The theme on screen, as the app states it in `color-scheme` on the page. */
const shownTheme = (page: Page): Promise<Theme> =>
  page.evaluate(() =>
    getComputedStyle(document.documentElement).colorScheme.includes('dark') ? 'dark' : 'light',
  );

/** Serious and critical WCAG A/AA violations on the page as it is now. */
async function audit(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    async ({ tags, blocking }) => {
      const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        // Experimental in axe, but WCAG 2.5.3 (A): a name that does not contain the visible
        // text misleads speech input ("click RO" on a button named "Limba").
        rules: { 'label-content-name-mismatch': { enabled: true } },
        resultTypes: ['violations'],
      });
      return result.violations
        .filter((v) => blocking.includes(v.impact ?? ''))
        .map((v) => ({
          id: v.id,
          impact: v.impact ?? '',
          help: v.help,
          nodes: v.nodes.map((n) => {
            const why = n.any[0]?.message ?? n.all[0]?.message ?? n.none[0]?.message ?? '';
            return `${n.target.join(' ')}${why ? ` — ${why}` : ''}`;
          }),
        }));
    },
    { tags: WCAG_TAGS, blocking: [...BLOCKING] },
  );
}

const describe = (screen: string, theme: Theme, findings: Finding[]) =>
  findings.map(
    (f) =>
      `${screen} (${theme}): ${f.id} [${f.impact}] ${f.help}\n` +
      f.nodes
        .slice(0, 8)
        .map((n) => `    ${n}`)
        .join('\n') +
      (f.nodes.length > 8 ? `\n    … and ${f.nodes.length - 8} more` : ''),
  );

/**
 * The accessibility gate: runs axe-core on the screen in the theme it shows and in the other
 * one, and throws on any serious or critical violation, naming the screen, rule and elements.
 * The other theme comes the way a device gives it, through `prefers-color-scheme`, so the
 * page keeps its state (an open dialog, a half-filled form); a screen whose user picked a
 * theme in the settings passes `otherTheme: false`, since the device no longer decides.
 */
export async function checkAccessibility(
  page: Page,
  screen: string,
  {
    otherTheme = true,
    inOtherTheme,
  }: {
    otherTheme?: boolean;
    /** Runs while the other theme shows (the journeys take its picture). */
    inOtherTheme?: (theme: Theme) => Promise<unknown>;
  } = {},
): Promise<void> {
  const first = await shownTheme(page);
  const problems = describe(screen, first, await audit(page));
  if (otherTheme) {
    const other: Theme = first === 'dark' ? 'light' : 'dark';
    const device = await page.evaluate(() =>
      matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
    );
    // The colours change at once, without the fades a person would see: nothing to wait for.
    await page.evaluate((css) => {
      const still = document.createElement('style');
      still.id = 'a11y-still';
      still.textContent = css;
      document.head.append(still);
    }, STILL_CSS);
    await page.emulateMedia({ colorScheme: other });
    await page
      .waitForFunction(
        (want) => getComputedStyle(document.documentElement).colorScheme.includes(want),
        other,
        { timeout: 10_000 },
      )
      .catch(() => {
        throw new Error(
          `${screen}: the theme did not follow the device's ${other} preference; if the user ` +
            'picked a theme in the settings, pass { otherTheme: false } to shot()',
        );
      });
    await settle(page);
    problems.push(...describe(screen, other, await audit(page)));
    await inOtherTheme?.(other);
    await page.emulateMedia({ colorScheme: device });
    await page.waitForFunction(
      (want) => getComputedStyle(document.documentElement).colorScheme.includes(want),
      first,
    );
    await page.evaluate(() => document.getElementById('a11y-still')?.remove());
    await settle(page);
  }
  if (problems.length > 0) {
    throw new Error(`Accessibility (WCAG 2.2 AA) violations:\n${problems.join('\n')}`);
  }
}
