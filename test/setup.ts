/**
 * Runs before every test file: fast-check properties run under one seed (test/helpers/random.ts),
 * so a failure replays with the same inputs. A test that passes its own `seed` keeps it.
 */
import fc from 'fast-check'
import { TEST_SEED } from './helpers/random.ts'

fc.configureGlobal({ seed: TEST_SEED })
