// axe-core in the browser tests: the explorer's (explorer.test.mjs) and the matrix
// page's (xtask/matrix/matrix.test.mjs, which takes its Playwright from this folder).
import assert from 'node:assert/strict';

/** axe-core (its source text `axeSource`) finds no violation in the page as it is now. */
export async function assertAxeClean(page, state, axeSource) {
  const found = await page.evaluate(async (source) => {
    if (!window.axe) (0, eval)(source);
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
  }, axeSource);
  assert.deepEqual(found, [], `axe in ${state}`);
}
