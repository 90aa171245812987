/**
 * The agent's token estimate and packing for prompt blocks: the rules recall's `tokenBudget`
 * uses (`core/token-budget.ts`), so a block packed by either fits the same budget the same way.
 */
export { estimateTokens, packToBudget } from '../core/token-budget.ts'
