/**
 * What the user picked or dropped, as an `ImportSource`: one export file (`.json`, `.zip`) is
 * handed over as the `File` itself, read a slice at a time by the importer; several files or a
 * folder are Markdown notes, read as `{ path, text }`.
 */
import type { ImportSource, NoteFile } from '../import/index.ts'

/** A file and its path inside what was dropped (`Trips/Porto.md`), or its name. */
export interface PickedFile {
  file: File
  path: string
}

/** What to import, named for the card, with what the progress bar counts to. */
export interface PickedSource {
  source: ImportSource
  name: string
  /** An export file's size: its progress is in bytes read. */
  bytes?: number
  /** How many notes: their progress is in notes read. */
  notes?: number
}

const NOTE = /\.(md|markdown)$/i

/** The files of an `<input type="file">` (a folder's carry `webkitRelativePath`). */
export function pickedFiles(list: FileList | null): PickedFile[] {
  return [...(list ?? [])].map((file) => ({ file, path: file.webkitRelativePath || file.name }))
}

/** The files of a drop, a dropped folder's walked whole. */
export async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  // Entries must be taken while the drop event runs: the list is emptied after it.
  const entries = [...data.items]
    .map((item) => item.webkitGetAsEntry?.())
    .filter((entry): entry is FileSystemEntry => Boolean(entry))
  if (entries.length === 0) return pickedFiles(data.files)
  const found: PickedFile[] = []
  for (const entry of entries) await walk(entry, found)
  return found
}

async function walk(entry: FileSystemEntry, found: PickedFile[]): Promise<void> {
  const path = entry.fullPath.replace(/^\//, '')
  if (entry.isFile) {
    const file = await new Promise<File>((done, fail) =>
      (entry as FileSystemFileEntry).file(done, fail),
    )
    found.push({ file, path })
    return
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader()
  // readEntries gives a batch at a time (100 in Chromium) until it gives none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((done, fail) =>
      reader.readEntries(done, fail),
    )
    if (batch.length === 0) return
    for (const child of batch) await walk(child, found)
  }
}

/**
 * The source for `importFrom`: one file not a note → that file; otherwise the Markdown notes
 * among the files (a folder's `.obsidian/` and other dot folders the importer skips).
 *
 * @throws Error when there is nothing to import: no file, or several files none a note.
 * @example
 * await pickedSource([{ file: conversationsZip, path: 'export.zip' }])
 * // => { source: conversationsZip, name: 'export.zip', bytes: 48213377 }
 */
export async function pickedSource(files: readonly PickedFile[]): Promise<PickedSource> {
  const [only] = files
  if (files.length === 1 && only && !NOTE.test(only.path)) {
    return { source: only.file, name: only.file.name, bytes: only.file.size }
  }
  const notes = files.filter((f) => NOTE.test(f.path))
  if (notes.length === 0) {
    throw new Error(
      files.length === 0
        ? 'Expected a .json or .zip export, or Markdown notes, got nothing'
        : `Expected one .json or .zip export, or Markdown notes (.md), got ${files.length} files and no note`,
    )
  }
  const root = sharedFolder(notes.map((f) => f.path))
  const list: NoteFile[] = await Promise.all(
    notes.map(async ({ file, path }) => ({
      path: root ? path.slice(root.length) : path,
      text: await file.text(),
      modifiedAt: file.lastModified,
    })),
  )
  const name = notes.length === 1 ? notes[0]!.file.name : (root ?? 'notes')
  return { source: list, name, notes: list.length }
}

/**
 * The folder every path starts in (`vault/`), or undefined. A picked folder's paths start with
 * its own name, which is not part of the notes' paths inside it (Obsidian's vault root): without
 * it a note has the same path, and so the same page id, however the folder is named.
 */
function sharedFolder(paths: readonly string[]): string | undefined {
  const first = paths[0]?.split('/')[0]
  if (first === undefined) return undefined
  const root = `${first}/`
  return paths.every((path) => path.startsWith(root)) ? root : undefined
}
