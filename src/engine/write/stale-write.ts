/**
 * Thrown by a `commit` that finds it is stale after it already wrote (a group of pages whose
 * third is stale): the transaction is aborted, so what it wrote is undone, and the try counts
 * as `STALE`. A commit that has written nothing yet answers `STALE` instead.
 */
export class StaleWrite extends Error {
  constructor() {
    super('stale after writing: the transaction is undone and the write tried again')
    this.name = 'StaleWrite'
  }
}
