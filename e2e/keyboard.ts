import type { Locator, Page } from 'playwright-core';

/**
 * Moves the focus with Tab (Shift+Tab with `back`) until `target` has it, as someone without
 * a mouse would; fails if it never does, so a control the keyboard cannot reach fails the
 * journey.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { back = false, max = 120 } = {},
): Promise<void> {
  const key = back ? 'Shift+Tab' : 'Tab';
  for (let i = 0; i <= max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${target} is not reached by ${key} in ${max} presses`);
}
