// Automated accessibility checks (axe-core) of the game screen, the settings and the rules.
const AxeBuilder = require('@axe-core/playwright').default;
const { test, expect, openFreshGame } = require('./helpers');

async function violations(page, include) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder.include(include);
  const result = await builder.analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

test('the game screen, settings and rules pass the axe WCAG 2.1 AA checks', async ({ page }) => {
  await openFreshGame(page);
  expect(await violations(page)).toEqual([]);
  await page.click('#settings-button');
  expect(await violations(page, '#settings-dialog')).toEqual([]);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.click('#rules-button');
  expect(await violations(page, '#rules-dialog')).toEqual([]);
});
