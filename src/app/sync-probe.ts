/**
 * Why a sync server cannot be used from this page, found by asking it twice: a CORS request
 * (what PouchDB makes), then, if that fails, a `no-cors` one. A browser hides why a CORS
 * request failed, but when the opaque `no-cors` request gets an answer the server is up and
 * refusing this page's origin; when neither gets one, nothing answers at that address.
 */

/** `reachable`: a CORS request got an answer; `cors`: only an opaque one did; `unreachable`: none. */
export type ServerReach = 'reachable' | 'cors' | 'unreachable'

/**
 * @example
 * await probeServer('http://127.0.0.1:5984/my-memory') // a server without CORS headers
 * // => 'cors'
 */
export async function probeServer(
  url: string,
  fetcher: typeof fetch = fetch,
): Promise<ServerReach> {
  try {
    await fetcher(url, { credentials: 'omit', cache: 'no-store' })
    return 'reachable'
  } catch {}
  try {
    await fetcher(url, { mode: 'no-cors', credentials: 'omit', cache: 'no-store' })
    return 'cors'
  } catch {
    return 'unreachable'
  }
}

/**
 * What to do about it, for the Sync card; '' when the server answered (the error says the rest).
 *
 * @example
 * reachHint('cors', 'https://app.example', 'http://127.0.0.1:5984/m')
 * // => 'The server at 127.0.0.1:5984 answers but does not allow this page's origin, https://app.example (CORS). …'
 */
export function reachHint(reach: ServerReach, origin: string, url: string): string {
  let host = url
  try {
    host = new URL(url).host
  } catch {}
  if (reach === 'cors') {
    return `The server at ${host} answers but does not allow this page’s origin, ${origin} (CORS). On CouchDB set [chttpd] enable_cors = true and [cors] origins = ${origin}, credentials = true, methods = GET, PUT, POST, HEAD, DELETE, headers = accept, authorization, content-type, origin, referer. The local try-out server takes --cors ${origin}.`
  }
  if (reach === 'unreachable') {
    return `Nothing answers at ${host}: check the address and that the server is running.`
  }
  return ''
}
