/**
 * Memory text on screen, and wiping it when an encrypted memory locks. A card marks every
 * element that can hold decrypted text (a list of hits, a page view, a field the user typed a
 * fact into) with the {@link PLAINTEXT} attribute; {@link wipePlaintext} empties them all, so
 * one marker per element is the whole contract and a new card cannot be forgotten by a list.
 */

/** The attribute that marks an element holding memory text. */
export const PLAINTEXT = 'data-plaintext'

/**
 * Empties every marked element under `root`: fields lose their value, other elements their
 * children (text, titles and attributes of the rows inside go with them). Error slots are
 * emptied too, since a message may quote what it refused. Returns how many were wiped.
 *
 * @example
 * wipePlaintext() // after memory.atRest.lock()
 * // => 9
 */
export function wipePlaintext(root: ParentNode = document): number {
  let wiped = 0
  for (const element of root.querySelectorAll<HTMLElement>(`[${PLAINTEXT}], .field-error`)) {
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      element.value = ''
    } else {
      element.replaceChildren()
    }
    if (element.classList.contains('field-error')) element.hidden = true
    wiped++
  }
  return wiped
}
