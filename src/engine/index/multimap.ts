/** Maps from a key to a set of ids, which drop a key once its set is empty. */

export function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let set = map.get(key)
  if (!set) {
    set = new Set()
    map.set(key, set)
  }
  set.add(id)
}

export function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const set = map.get(key)
  if (!set) return
  set.delete(id)
  if (set.size === 0) map.delete(key)
}
