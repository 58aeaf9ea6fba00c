// The repository root the tests read spec/ and vectors/ from: BLOOMPROOF_ROOT when set
// (CI runs these tests from a temporary project that installed the package), else
// the checkout these tests are in.
import { fileURLToPath } from 'node:url';

export const ROOT = process.env.BLOOMPROOF_ROOT ?? fileURLToPath(new URL('../../../', import.meta.url));
