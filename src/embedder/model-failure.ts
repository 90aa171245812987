/**
 * Why a model did not load, read once, here, from the runtime's own words (transformers.js,
 * ONNX Runtime, TF.js, the browser's fetch), so that the engine's `model-failed` event, the
 * embedder's stats and `EmbedderUnavailableError` carry a {@link ModelFailureReason} and no
 * caller parses error text.
 */

import type { ModelFailure, ModelFailureReason } from '../core/types.ts'

/** The first rule whose pattern matches the error's text gives the reason; order matters. */
const RULES: readonly { reason: ModelFailureReason; test: RegExp }[] = [
  {
    reason: 'offline-only',
    test: /allowRemoteModels=false|local_files_only=true|local and remote models are disabled|remote loading is off/,
  },
  { reason: 'not-found', test: /Could not locate file|ModelFileNotFoundError|\b404\b/i },
  {
    reason: 'out-of-memory',
    test: /out of memory|\bOOM\b|allocation failed|Cannot allocate|failed to allocate|bad_alloc|memory access out of bounds/i,
  },
  {
    reason: 'unreachable',
    test: /Failed to fetch|NetworkError|Load failed|network error|fetch failed|ERR_[A-Z_]+|ENOTFOUND|ECONNREFUSED|ETIMEDOUT/i,
  },
  {
    reason: 'damaged',
    test: /protobuf parsing failed|invalid model|Unexpected token|is not valid JSON/i,
  },
  // Not the `wasm:` / `webgpu:` device prefix every load failure carries: the runtime's words.
  {
    reason: 'runtime',
    test: /no available backend|WebAssembly|onnxruntime|\bAborted\(|\.wasm\b|backend could not start/i,
  },
]

/** The path or URL a "file not found" names, as transformers.js words it. */
const MISSING_FILE =
  /(?:Could not locate file|not found locally at|Local file missing at):? "([^"]+)"/i

/**
 * Classifies a load failure: the error, its message and every `cause` under it.
 *
 * @example
 * classifyModelFailure(new Error('Load model from /m/onnx/model.onnx failed:Protobuf parsing failed.'))
 * // => { reason: 'damaged' }
 * classifyModelFailure(new Error('Could not locate file: "https://app.example/models/m/onnx/model.onnx".'))
 * // => { reason: 'not-found', file: 'https://app.example/models/m/onnx/model.onnx' }
 */
export function classifyModelFailure(error: unknown): ModelFailure {
  const known = ownFailure(error)
  if (known) return known
  const text = wordsOf(error)
  const reason = RULES.find((rule) => rule.test.test(text))?.reason ?? 'unknown'
  const file = MISSING_FILE.exec(text)?.[1]
  return file === undefined ? { reason } : { reason, file }
}

/** A failure an embedder already classified (an `EmbedderUnavailableError` with its reason). */
function ownFailure(error: unknown): ModelFailure | undefined {
  const { reason, file } = (error ?? {}) as Partial<ModelFailure>
  if (typeof reason !== 'string' || !(error instanceof Error)) return undefined
  return typeof file === 'string' ? { reason, file } : { reason }
}

function wordsOf(error: unknown): string {
  const words: string[] = []
  let at: unknown = error
  for (let depth = 0; at !== undefined && at !== null && depth < 8; depth++) {
    if (at instanceof Error) {
      words.push(`${at.name}: ${at.message}`)
      at = at.cause
    } else {
      words.push(String(at))
      at = undefined
    }
  }
  return words.join('\n')
}
