/**
 * The agent's token estimate for packing prompt blocks: the rule recall's `tokenBudget` uses
 * (`core/token-budget.ts`), so a block packed by either fits the same budget.
 */
export { estimateTokens } from '../core/token-budget.ts'
