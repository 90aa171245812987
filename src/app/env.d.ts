/** The package version, replaced at build time (vite.config.ts `define`). */
declare const __ENGRAM_VERSION__: string

interface ImportMetaEnv {
  /** Build-time default model id, e.g. `VITE_ENGRAM_MODEL=Xenova/all-MiniLM-L6-v2 npm run build`. */
  readonly VITE_ENGRAM_MODEL?: string
}
