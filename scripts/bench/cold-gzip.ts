/**
 * Whether gzip (`CompressionStream`) pays on snapshot segments: the catalogue of `size` corpus
 * memories in segments as the snapshot saves them, each gzipped and gunzipped, with the bytes
 * saved against the CPU time spent. `tsx scripts/bench/cold-gzip.ts [size=10000]`.
 */
import { dedupKey, storedText } from '../../src/core/text.ts'
import { catalogueSegments } from '../../src/engine/index/segments.ts'
import { toMemory } from '../../src/engine/write/plan.ts'
import { buildCorpus } from './corpus.ts'

const size = Number(process.argv[2] ?? 10_000)
const memories = buildCorpus(size, 0).texts.map((raw, i) => {
  const text = storedText(raw)
  const write = {
    text,
    key: dedupKey(text),
    namespace: 'default',
    type: 'fact',
    tags: [],
    aliases: [],
    source: 'agent',
    trust: 'unverified',
    confidence: 0.6,
    flags: [],
  } as const
  return toMemory(`01J${String(i).padStart(23, '0')}`, write as never, Date.now())
})
const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const pipe = async (bytes: Uint8Array, stream: CompressionStream | DecompressionStream) =>
  new Uint8Array(
    await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream)).arrayBuffer(),
  )
let c = cpu()
const segments = catalogueSegments(memories)
const stringify = cpu() - c
const encoded = segments.map((s) => new TextEncoder().encode(s.rows))
const raw = encoded.reduce((n, b) => n + b.length, 0)
c = cpu()
const zipped = await Promise.all(encoded.map((b) => pipe(b, new CompressionStream('gzip'))))
const zip = cpu() - c
c = cpu()
await Promise.all(zipped.map((b) => pipe(b, new DecompressionStream('gzip'))))
const unzip = cpu() - c
c = cpu()
for (const s of segments) JSON.parse(s.rows)
const parse = cpu() - c
const packed = zipped.reduce((n, b) => n + b.length, 0)
console.log(
  `${size}: catalogue ${(raw / 1e6).toFixed(1)} MB in ${segments.length} segments -> gzip ${(packed / 1e6).toFixed(1)} MB (${((100 * packed) / raw).toFixed(0)}%); cpu ms: stringify ${stringify.toFixed(0)}, gzip ${zip.toFixed(0)}, gunzip ${unzip.toFixed(0)}, parse ${parse.toFixed(0)}`,
)
