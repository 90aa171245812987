import { Unzip, UnzipInflate } from 'fflate'
import { ImportFormatError } from '../core/errors.ts'

/** A piece of one file of a zip, in archive order. */
export interface ZipPiece {
  name: string
  data: Uint8Array
  /** The file's last piece. */
  final: boolean
}

/**
 * The files of a zip whose names `want` accepts, as pieces decompressed while the archive's
 * bytes arrive (fflate's streaming `Unzip`): a 200 MB `conversations.json` inside a ChatGPT
 * export zip is never held whole.
 *
 * @throws ImportFormatError when the archive is damaged or uses a compression other than
 *   deflate or none.
 */
export async function* unzipPieces(
  chunks: AsyncIterable<Uint8Array>,
  want: (name: string) => boolean,
): AsyncGenerator<ZipPiece> {
  let ready: ZipPiece[] = []
  let failure: Error | undefined
  const unzip = new Unzip((file) => {
    if (!want(file.name)) return
    file.ondata = (error, data, final) => {
      if (error) failure ??= error
      else ready.push({ name: file.name, data, final })
    }
    try {
      file.start()
    } catch (error) {
      failure ??= error as Error
    }
  })
  unzip.register(UnzipInflate)
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      unzip.push(chunk, final)
    } catch (error) {
      failure ??= error as Error
    }
    if (failure) throw new ImportFormatError(0, `not a readable zip: ${failure.message}`)
    const out = ready
    ready = []
    return out
  }
  for await (const chunk of chunks) yield* push(chunk, false)
  yield* push(new Uint8Array(0), true)
}
