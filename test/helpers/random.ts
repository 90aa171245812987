/**
 * The tests' one seeded randomness: the generator the model generator and benchmarks use, and
 * the seed every property test runs under (set in test/setup.ts; override with ENGRAM_TEST_SEED
 * to replay a failure).
 */
export { hashSeed, normal, uniform } from '../../scripts/models/rng.ts'

/** The seed of this run: `ENGRAM_TEST_SEED`, else a fixed one, so runs repeat. */
export const TEST_SEED = Number.parseInt(process.env.ENGRAM_TEST_SEED ?? '', 10) || 20261201
