/**
 * `engram/connect`: a memory shared with other origins, both sides. A page of the memory's
 * origin, loaded in an iframe by another site, calls {@link serveOrigins}; that site calls
 * {@link embedMemory}, the door to a memory on another origin. The user decides which origins may connect; the decisions are
 * kept in {@link SiteGrants}, which the app's "Connected sites" panel lists and revokes.
 */
export {
  type EmbeddedMemory,
  type EmbedMemoryOptions,
  embedMemory,
} from '../client/embed-memory.ts'
export { AccessDeniedError } from '../core/errors.ts'
export {
  type FirstPartyStorage,
  firstPartyStorage,
  requestFirstPartyStorage,
  whyNoFirstPartyStorage,
} from './first-party-storage.ts'
export { createOriginHost } from './origin-host.ts'
export { NOT_OFFERED_TO_ORIGINS, type OriginAccess, scopeToOrigin } from './origin-scope.ts'
export {
  CONNECT_PROTOCOL,
  type ConnectAccepted,
  type ConnectPath,
  type ConnectPrompt,
  type ConnectRefused,
  type ConnectReply,
  type ConnectRequest,
  type HostReady,
  originNamespace,
  type PathReport,
} from './protocol.ts'
export {
  type ConnectionStatus,
  type ConsentRequest,
  type ServeOriginsOptions,
  serveOrigins,
} from './serve-origins.ts'
export {
  checkOrigin,
  type GrantState,
  SITE_GRANTS_DATABASE,
  type SiteGrant,
  SiteGrants,
  type SiteGrantsEnvironment,
} from './site-grants.ts'
