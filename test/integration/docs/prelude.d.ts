/**
 * Names the docs' code blocks use without defining them: each block is one step of a story
 * whose earlier steps (opening a memory, creating an SDK client, choosing a passphrase) are told
 * in prose or another block. A block that defines a name itself shadows these. The fence tags
 * and what they mean: scripts/docs/code-blocks.ts.
 */
import type Anthropic from '@anthropic-ai/sdk'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { LanguageModel } from 'ai'
import type { MemoryClient } from 'engram'
import type { MemoryTools } from 'engram/agent'
import type OpenAI from 'openai'
import type { ResponseInput } from 'openai/resources/responses/responses'

declare global {
  /** An open memory: `await openMemory({ name: 'assistant' })`. */
  const memory: MemoryClient
  /** The user's passphrase, for encryption at rest and sync. */
  const passphrase: string
  /** The sync server's password for the user (CouchDB `auth`). */
  const password: string
  /** `memoryTools(memory)`, in the agent docs. */
  const tools: MemoryTools
  /** An OpenAI client, `new OpenAI()`, and the conversation so far. */
  const openai: OpenAI
  const input: ResponseInput
  /** The Anthropic conversation so far. */
  const messages: Anthropic.MessageParam[]
  /** A Vercel AI SDK model, e.g. `openai('gpt-4.1')` from `@ai-sdk/openai`. */
  const model: LanguageModel
  /** An MCP transport, e.g. `new StdioServerTransport()`. */
  const transport: Transport
}
