/**
 * The entry of `dist/vendor/transformers.js`: the part of transformers.js' web build Engram
 * calls, with ONNX Runtime Web inlined (see build.ts). Only these names are exported, so the
 * bundle keeps what `pipeline('feature-extraction')` reaches.
 */
export { env, pipeline } from '@huggingface/transformers'
