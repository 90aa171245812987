import type { Memory, PageChunkInfo } from '../types.ts'

/** A memory row that is a chunk of a page. */
export type ChunkRow = Memory & { pageId: string; chunk: number; page: PageChunkInfo }

/** Whether a row is a chunk of a page (and carries where it sits). */
export function isChunk(memory: Memory): memory is ChunkRow {
  return memory.pageId !== undefined && memory.chunk !== undefined && memory.page !== undefined
}
