import type { EmbedderChoice } from 'engram'

/**
 * `config.json` at the extension's root, written by `npm run build:extension`: which embedder
 * the memory worker builds. `modelBase` may be relative to the extension's root (models shipped
 * inside it); the worker makes it absolute.
 *
 * @example
 * { "embedder": { "kind": "transformers", "model": "Xenova/bge-small-en-v1.5", "modelBase": "models/" } }
 * // => the worker loads chrome-extension://<id>/models/Xenova/bge-small-en-v1.5/config.json, …
 */
export interface ExtensionConfig {
  /** @default { kind: 'transformers' } (bge-small from the Hugging Face hub, cached after) */
  embedder?: EmbedderChoice
}

/** Reads the config shipped with the extension, its URLs made absolute. */
export async function loadConfig(): Promise<ExtensionConfig> {
  const root = new URL('/', self.location.href)
  const response = await fetch(new URL('config.json', root))
  const config = (response.ok ? await response.json() : {}) as ExtensionConfig
  const embedder = config.embedder
  if (embedder?.kind === 'transformers' && embedder.modelBase) {
    return { embedder: { ...embedder, modelBase: new URL(embedder.modelBase, root).href } }
  }
  return config
}
