import { type ConsentRequest, requestFirstPartyStorage } from '../../connect/index.ts'
import { byId } from '../dom.ts'

/** How long the prompt must have been visible before its buttons work (clickjacking). */
const ARM_AFTER_MS = 500

/**
 * Shows "<origin> wants to use your memory: Allow / Deny" in the host page and resolves with the
 * user's click. The buttons work only while the prompt is on screen and unobscured, and only
 * after {@link ARM_AFTER_MS} of that (IntersectionObserver v2 where the browser has it), so an
 * embedder that covers the frame with a decoy cannot harvest a click. Prompts queue.
 */
export function askConsent(request: ConsentRequest): Promise<boolean> {
  queue = queue.then(() => ask(request))
  return queue
}

let queue: Promise<boolean> = Promise.resolve(false)

function ask(request: ConsentRequest): Promise<boolean> {
  const prompt = byId('consent')
  const allow = byId<HTMLButtonElement>('consent-allow')
  const deny = byId<HTMLButtonElement>('consent-deny')
  byId('consent-origin').textContent = request.origin
  byId('consent-memory').textContent = request.memory
  byId('consent-namespace').textContent = request.namespace
  prompt.hidden = false
  const arm = (armed: boolean): void => {
    allow.disabled = !armed
    deny.disabled = !armed
  }
  arm(false)
  const disarm = armWhenSeen(prompt, arm)
  return new Promise((resolve) => {
    const answer = (allowed: boolean): void => {
      disarm()
      allow.onclick = null
      deny.onclick = null
      prompt.hidden = true
      resolve(allowed)
    }
    allow.onclick = () => {
      // First, while the click's activation lasts: the browser may grant storage access only now.
      void requestFirstPartyStorage()
      answer(true)
    }
    deny.onclick = () => {
      void requestFirstPartyStorage()
      answer(false)
    }
  })
}

/**
 * Calls `arm(true)` once `element` has been visible for a while, `arm(false)` as soon as it is
 * not; returns a function that stops watching.
 */
function armWhenSeen(element: HTMLElement, arm: (armed: boolean) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const v2 = 'isVisible' in IntersectionObserverEntry.prototype
  const observer = new IntersectionObserver(
    (entries) => {
      const entry = entries[entries.length - 1]
      const seen = v2
        ? (entry as IntersectionObserverEntry & { isVisible: boolean }).isVisible
        : Boolean(entry?.isIntersecting)
      clearTimeout(timer)
      if (seen) timer = setTimeout(() => arm(true), ARM_AFTER_MS)
      else arm(false)
    },
    // trackVisibility (v2) reports occlusion, opacity and transforms, not just geometry.
    v2
      ? ({ threshold: 1, trackVisibility: true, delay: 100 } as IntersectionObserverInit)
      : { threshold: 1 },
  )
  observer.observe(element)
  return () => {
    clearTimeout(timer)
    observer.disconnect()
  }
}
