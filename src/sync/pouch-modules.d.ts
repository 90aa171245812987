// The PouchDB adapters without published types: each is a plugin object for `PouchDB.plugin`.
declare module 'pouchdb-adapter-indexeddb' {
  const plugin: PouchDB.Plugin
  export default plugin
}
declare module 'pouchdb-adapter-memory' {
  const plugin: PouchDB.Plugin
  export default plugin
}
