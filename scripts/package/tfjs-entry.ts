/**
 * The entry of `dist/vendor/tfjs.js`: TF.js for `UseEmbedder` in the worker bundle, one file
 * so its three packages share one engine. The worker's imports of `@tensorflow/tfjs-core`,
 * `-backend-wasm` and `-converter` all resolve here (see build.ts), so this module is each of
 * them: tfjs-core whole, plus the two names taken from the others. Importing backend-wasm also
 * registers the `wasm` backend.
 */

export { setWasmPaths } from '@tensorflow/tfjs-backend-wasm'
export { loadGraphModel } from '@tensorflow/tfjs-converter'
export * from '@tensorflow/tfjs-core'
