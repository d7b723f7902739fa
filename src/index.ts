/**
 * The runtime-neutral entry: `McpClient`, the Streamable HTTP, WebSocket and in-memory
 * transports, the response cache, errors and the MCP 2026-07-28 types.
 *
 * @module mcp-live
 */
// Public API of the runtime-neutral root entry. Adding an export here adds public API:
// keep it explicit, and keep Node-only code out (it belongs in ./node.ts).
export { McpClient } from './client/client.js';
export { type ClientState } from './reconnect/types.js';
export { readTemplate, completeTemplateArgument } from './client/templates.js';
export { readAppResource } from './client/appResources.js';
export type { ClientEvent, ReconnectCause } from './reconnect/types.js';
export { DEFAULT_RECONNECT_POLICY, type ReconnectOptions, type ResolvedReconnectPolicy } from './reconnect/policy.js';
export type { PageParams, ListMethod, ListItemTypes, WalkOptions } from './client/reads.js';
export type { ClientOptions, ClientCacheOptions, AppsOptions } from './client/options.js';
export { ClientStateError, type ClientStateErrorData } from './client/errors.js';
export {
  MiddlewareError,
  onToolCall,
  onPromptGet,
  onResourceRead,
  type Middleware,
  type MiddlewareErrorData,
  type NextMiddleware,
  type RequestContext,
  type ToolCallContext,
  type PromptGetContext,
  type ResourceReadContext,
  type UseOptions,
} from './client/middleware.js';
export type { Closeable } from './util/disposable.js';
export type { CallOptions, CacheMode, InputRequiredMode, InputRetry, Progress } from './wire/callOptions.js';
export { contentLanguage } from './wire/language.js';
export type { CallToolOptions } from './tasks/options.js';
export type { CloseOptions } from './client/closeOptions.js';
export { InMemoryTransport } from './transport/memory.js';
export { StreamableHttpTransport } from './transport/http/streamableHttp.js';
export { type StreamableHttpTransportOptions } from './transport/http/streamableHttpOptions.js';
export type {
  AuthProvider,
  AuthRequestInfo,
  AuthFailureInfo,
  AuthChallenge,
  BearerChallenge,
  HttpAuthFailure,
  RequestProof,
  ProofRequest,
  ProofResponse,
} from './transport/http/auth.js';
export type { FetchLike } from './transport/http/stack.js';
export {
  WebSocketTransport,
  type WebSocketTransportOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from './transport/websocket/webSocket.js';
export {
  HttpError,
  HttpAuthError,
  StreamBrokenError,
  WebSocketCloseError,
  isHttpError,
  isHttpAuthError,
  isStreamBrokenError,
  isWebSocketCloseError,
  type HttpErrorData,
  type HttpAuthErrorData,
  type StreamBrokenErrorData,
  type WebSocketCloseErrorData,
  type WebSocketCloseKind,
} from './transport/transportErrors.js';
export { parseWwwAuthenticate, bearerChallenge } from './transport/http/wwwAuthenticate.js';
export { encodeHeaderValue } from './transport/http/headerValue.js';
export type { Backoff, BackoffOptions } from './resilience/backoff.js';
export type { RetryPolicy } from './resilience/retryPolicy.js';
export {
  SessionExpiredError,
  isSessionExpiredError,
  type SessionExpiredErrorData,
  type LegacyHttpOptions,
} from './transport/http/legacy/legacyHttp.js';
export type {
  Transport,
  TransportCapabilities,
  TransportCloseInfo,
  TransportHandlers,
  TransportSendOptions,
  RequestCredential,
  CancelHandle,
  MessageContext,
  LegacyWireControl,
  LinkRequest,
  TransportLink,
  TransportLinkDeps,
} from './transport/transport.js';
export {
  McpError,
  RpcError,
  ResourceNotFoundError,
  UnsupportedProtocolVersionError,
  MissingClientCapabilityError,
  LocalError,
  TimeoutError,
  CancelledError,
  ConnectionClosedError,
  ProtocolError,
  VersionNegotiationError,
  InvalidArgumentError,
  InputRequiredError,
  isRpcError,
  isCancelledError,
  isTimeoutError,
  type TimeoutErrorData,
  type ConnectionClosedErrorData,
  type ProtocolErrorData,
} from './errors/errors.js';
export { ErrorCode, type ErrorCodeName } from './errors/codes.js';
export { ModuleLoadError, isModuleLoadError, type ModuleLoadErrorData } from './errors/moduleLoad.js';
// Dual-era: 2025-11-25 fallback (spec: basic/versioning, Backward Compatibility; docs/legacy.md)
export {
  LEGACY_PROTOCOL_VERSIONS,
  DEFAULT_PROBE_TIMEOUT_MS,
  type Era,
  type EraSetting,
  type EraMemory,
  type EraVerdict,
} from './era/era.js';
export { LegacySseTransport } from './transport/http/legacy/legacySse.js';
export { type LegacySseTransportOptions } from './transport/http/legacy/sseOptions.js';
export {
  SseEndpointError,
  type SseEndpointErrorData,
  type SseEndpointProblem,
} from './transport/http/legacy/sseEndpoint.js';
export { EraDetectionError, type EraDetectionErrorData, type EraStepFailure } from './era/errors.js';
// Response cache (spec: server/utilities/caching)
export { ResponseCache } from './cache/responseCache.js';
export type { ResponseCacheOptions } from './cache/options.js';
export { MemoryCacheStore, type MemoryCacheStoreOptions, type CacheStore } from './cache/cacheStore.js';
export type { CacheEntry, CacheEntryInfo } from './cache/types.js';
export { listCacheEntries, type ListEntriesOptions } from './cache/entryListing.js';
export type { MaybePromise } from './util/maybePromise.js';
export { CacheMissError, isCacheMissError, type CacheMissData } from './cache/errors.js';
export type { FleetInvalidation, FlightTicket, StoreRefusal } from './cache/fleet.js';
export type { ListWalk, ListWalkRequest, ListWalkSummary } from './cache/listWalk.js';
export type {
  CacheEvent,
  CacheStats,
  CacheOutcome,
  CacheSource,
  SkipReason,
  InvalidateTarget,
  CacheRequest,
  Loader,
  LoadOutcome,
  CacheableMethod,
} from './cache/types.js';
export { CACHEABLE_METHODS } from './cache/types.js';
export type { AuthContext, AuthContextSource } from './cache/authContext.js';
export type { CredentialSource } from './cache/partitionResolver.js';
// Pagination (spec: server/utilities/pagination)
export {
  PaginationError,
  PaginationLimitError,
  isPaginationError,
  type PaginationErrorData,
  type PaginationFailure,
} from './pagination/errors.js';
export type { Page, ListAllResult } from './pagination/paginate.js';
// input_required (spec: basic/patterns/mrtr)
export type {
  InputHandlers,
  InputHandlerContext,
  FormElicitationHandler,
  UrlElicitationHandler,
  SamplingHandler,
  RootsHandler,
  FormElicitParams,
  UrlElicitParams,
} from './inputRequired/handlers.js';
export {
  InputRequiredRoundsError,
  InputRequestFailedError,
  type InputRequiredRoundsErrorData,
  type InputRequestFailedErrorData,
  type InputRequestFailureReason,
  UrlElicitationRequiredError,
  type UrlElicitation,
} from './inputRequired/errors.js';
export { inputRetryFor } from './inputRequired/retry.js';
// Subscriptions and live lists (spec: basic/patterns/subscriptions)
export type {
  Subscription,
  SubscriptionEvent,
  SubscriptionChangeType,
  SubscriptionClosed,
  SubscriptionEndReason,
  SubscriptionState,
  SubscribeOptions,
  SubscriptionClientOptions,
  LiveList,
  LiveListEvent,
  LivePollReason,
  LiveListItems,
  LiveListKind,
  LiveListOptions,
} from './subscriptions/types.js';
export { DEFAULT_REOPEN_POLICY, type ReopenPolicy, type ResolvedReopenPolicy } from './resilience/reopenPolicy.js';
export {
  SubscriptionClosedError,
  UnmatchedNotificationError,
  isSubscriptionClosedError,
  type SubscriptionClosedData,
  type UnmatchedNotificationData,
} from './subscriptions/errors.js';
// Tasks extension (io.modelcontextprotocol/tasks; docs/tasks.md)
export { ToolTask, type ToolTaskEvent } from './tasks/toolTask.js';
export type { TasksOptions, TaskCallOptions, TaskMode } from './tasks/options.js';
export type { ResumeTaskOptions } from './tasks/types.js';
export {
  MemoryTaskStore,
  taskKey,
  taskKeyPrefix,
  type TaskStore,
  type TaskRecord,
  type MemoryTaskStoreOptions,
} from './tasks/taskStore.js';
export {
  TaskFailedError,
  TaskCancelledError,
  TaskExpiredError,
  TaskNotFoundError,
  TaskAbandonedError,
  isTaskExpiredError,
  isTaskNotFoundError,
  isTaskAbandonedError,
  type TaskExpiredErrorData,
  type TaskAbandonedErrorData,
  type TaskAbandonReason,
} from './tasks/errors.js';
export { DEFAULT_TASK_POLL, type TaskPollPolicy } from './tasks/options.js';
export { DEFAULT_TASK_POLL_RETRY, type TaskPollRetry, type ResolvedTaskPollRetry } from './tasks/pollRetry.js';

// Skills extension (io.modelcontextprotocol/skills, SEP-2640; docs/skills.md). The code behind
// `client.skills` loads on first use; only these types, constants and error classes are here.
export type { ClientSkills } from './client/skills.js';
export type { SkillListOptions, DirectoryReadOptions } from './skills/skillsClient.lazy.js';
export { SKILLS_EXTENSION, type SkillsCapability } from './wire/skillsCapability.js';
export {
  DIRECTORY_MIME_TYPE,
  SKILL_LIMITS,
  type Skill,
  type SkillFile,
  type SkillFrontmatter,
  type SkillListing,
  type SkillResourceEntry,
  type InvalidSkillEntry,
  type DirectoryEntry,
  type DirectoryListing,
} from './skills/types.js';
export {
  SkillVerificationError,
  SkillPathError,
  type SkillPathErrorData,
  type SkillPathReason,
  InvalidSkillEntryError,
  SkillsUnsupportedError,
  type SkillVerificationReason,
  type SkillVerificationErrorData,
} from './skills/errors.js';
// Triggers & Events extension (io.modelcontextprotocol/events; docs/events.md). The code behind
// `client.events` loads on first use; only these types, constants, the memory cursor store and
// the error classes are here (the webhook receiver and the file store are in mcp-live/node).
export type { ClientEvents } from './client/events.js';
export type { EventListOptions, EventListing, EventSubscribeOptions } from './events/options.js';
export type { EventLease } from './events/lease.js';
export type {
  EventSubscription,
  EventSubscriptionEvent,
  EventSubscriptionState,
  EventSubscriptionClosed,
  EventSubscriptionCloseReason,
  EventMessage,
  TruncatedVia,
} from './events/subscription.js';
export type { PollOptions } from './events/pollLoop.js';
export type { PushOptions } from './events/pushLoop.js';
export type { WebhookOptions } from './events/webhookLoop.js';
export type { WebhookRoutes, WebhookRoute } from './events/webhookRoutes.js';
export type { DeliveryChoice } from './events/deliveryMode.js';
export { MemoryCursorStore, cursorKey, type CursorStore } from './events/cursorStore.js';
export {
  EventsErrorCode,
  EventNotFoundError,
  EventForbiddenError,
  EventResourceExhaustedError,
  EventUnsupportedError,
  CallbackEndpointError,
  EventsUnsupportedError,
  NoCompatibleDeliveryModeError,
  EventSubscriptionEndedError,
  type EventSubscriptionEndReason,
} from './events/errors.js';
export {
  EVENTS_EXTENSION,
  EVENTS_SUBSCRIPTION_ID_META,
  EventsMethod,
  DELIVERY_MODES,
  type DeliveryMode,
  type DeliveryStatus,
  type EventDescriptor,
  type EventOccurrence,
  type PollEventsResult,
  type SubscribeEventsResult,
  type WebhookControlBody,
} from './wire/events.js';
export {
  TASKS_EXTENSION,
  TASK_STATUSES,
  TASK_STATUS_NOTIFICATION,
  TaskMethod,
  type Task,
  type TaskStatus,
  type TerminalTaskStatus,
  type DetailedTask,
  type TerminalTask,
  type WorkingTask,
  type InputRequiredTask,
  type CompletedTask,
  type FailedTask,
  type CancelledTask,
  type CreateTaskResult,
  type UpdateTaskParams,
} from './wire/tasks.js';
export { ToolOutputValidationError, type ToolOutputValidationErrorData } from './client/outputValidation.js';
export { viewContents, decodeBase64, type ContentsView } from './wire/resourceContents.js';
// Resource templates (RFC 6570), resource links and annotations (spec: server/resources; docs/resources.md)
export { parseUriTemplate, expandUriTemplate, isUriTemplate } from './resources/uriTemplate.js';
export {
  type UriTemplate,
  type UriTemplateSource,
  type UriTemplateVariable,
  type UriTemplateOperator,
  type UriTemplateExpression,
  type UriTemplatePart,
  type UriTemplateValue,
  type UriTemplateValues,
} from './resources/rfc6570.js';
export {
  matchUriTemplate,
  matchUriTemplates,
  type UriTemplateMatch,
  type MatchUriTemplateOptions,
} from './resources/uriTemplateMatch.js';
export {
  UriTemplateError,
  UriTemplateAmbiguityError,
  isUriTemplateAmbiguityError,
  type UriTemplateErrorData,
  type UriTemplateAmbiguityErrorData,
  type AmbiguousMatch,
} from './resources/errors.js';
export {
  resourceLinksOf,
  type ResourceLinkSource,
  type ResourceLinkRead,
  type ReadResourceLinksOptions,
} from './resources/links.js';
export {
  annotationsOf,
  selectByAnnotations,
  type Annotated,
  type CheckedAnnotations,
  type SelectByAnnotationsOptions,
} from './resources/annotations.js';
// Completion as a user types (spec: server/utilities/completion)
export {
  DEFAULT_COMPLETION_DEBOUNCE_MS,
  DEFAULT_COMPLETION_CACHE_TTL_MS,
  type CompleterOptions,
} from './completion/completer.js';
export {
  type Completer,
  type CompletionOutcome,
  type CompletionAnswer,
  type CompletionSuperseded,
  type CompletionUnsupported,
} from './completion/types.js';
export { MAX_COMPLETION_VALUES } from './completion/limits.js';
// Observability: the debug log (docs/observability.md); OpenTelemetry is the mcp-live/telemetry entry
export type { ClientTelemetry } from './observability/clientTelemetry.js';
export {
  DEBUG_ENV_VAR,
  type DebugEntry,
  type DebugEntryType,
  type DebugOption,
  type DebugSink,
} from './observability/debug.js';
export { debugFetch } from './observability/debugFetch.js';
export type { CacheOutcomeName } from './observability/observer.lazy.js';
export type { Clock, Timers, TimerHandle } from './util/clock.js';
export type {
  RequestId,
  JsonObject,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcResponse,
  JsonRpcResultResponse,
  JsonRpcErrorResponse,
  JsonRpcErrorObject,
} from './wire/messages.js';
export * from './wire/protocol.js';
// MCP Apps extension (io.modelcontextprotocol/ui; docs/apps.md); the frame bridge is mcp-live/apps-bridge
export { UI_EXTENSION, APP_MIME_TYPE, APPS_PROTOCOL_VERSION, DEFAULT_MAX_APP_HTML_BYTES } from './apps/constants.js';
export { withAppsExtension, serverOffersApps } from './apps/capability.js';
export {
  toolUi,
  isModelVisible,
  isAppCallable,
  splitAppTools,
  type ToolUi,
  type AppToolVisibility,
  type AppToolSource,
  type AppToolSplit,
} from './apps/toolUi.js';
export { appResourceFrom, type ReadAppResourceOptions } from './apps/appResource.js';
export { isAppMimeType } from './apps/uiUri.js';
export {
  type AppResource,
  type AppCsp,
  type AppPermissions,
  type AppResourceOptions,
} from './apps/appResourceCheck.js';
export { appContentSecurityPolicy, appPermissionsPolicy, appFrameDocument } from './apps/framePolicy.js';
export { appTextFallback, type AppTextFallbackOptions } from './apps/textFallback.js';
export {
  AppSession,
  type AppSessionOptions,
  type AppSessionState,
  type AppHandlers,
  type AppRequestOutcome,
  type AppServerLink,
  type AppToolCall,
  type AppToolCallDecision,
  type ApproveAppToolCall,
  type FramePort,
} from './apps/appSession.js';
export { type AppDownloadFile, MAX_DOWNLOAD_FILES, MAX_DOWNLOAD_BYTES } from './apps/downloadFile.js';
export {
  AppResourceError,
  AppToolCallDeniedError,
  isAppResourceError,
  isAppToolCallDeniedError,
  type AppResourceErrorData,
  type AppResourceProblem,
  type AppToolCallDeniedErrorData,
  type AppToolCallDenial,
} from './apps/errors.js';
// OAuth 2.1 authorization for HTTP servers (spec: basic/authorization)
export { createOAuthProvider, type OAuthProvider } from './auth/oauthProvider.js';
export type {
  OAuthProviderOptions,
  OAuthProviderBaseOptions,
  AuthorizationCodeProviderOptions,
  NonInteractiveProviderOptions,
  WallClock,
} from './auth/oauthOptions.js';
export type {
  OAuthGrant,
  NonInteractiveGrant,
  AuthorizationCodeGrant,
  ClientCredentialsGrant,
  JwtBearerGrant,
  AssertionRequest,
  IdJagGrant,
  IdentityProvider,
  SubjectTokenRequest,
} from './auth/grantOptions.js';
export type { DPoPOptions, DPoPKeySource } from './auth/dpopOptions.js';
export type {
  DiscoveryAddressPolicy,
  AddressCheckTarget,
  AddressLookup,
  ResolvedAddress,
} from './auth/addressPolicy.js';
export { addressKind, type AddressKind } from './auth/addressKinds.js';
export { createHeadlessRedirectHandler, type HeadlessRedirectOptions } from './auth/redirectHandler.js';
export { clientIdMetadataDocument } from './auth/clientMetadataDocument.js';
export { MemoryCredentialStore, type CredentialStore } from './auth/credentialStore.js';
export type {
  OAuthClientMetadata,
  PreRegisteredClient,
  PrivateKeyInput,
  RedirectHandler,
  RedirectRequest,
  StoredClient,
  StoredTokens,
  TokenEndpointAuthMethod,
} from './auth/types.js';
export {
  OAuthError,
  InsufficientScopeError,
  AuthorizationRequiredError,
  isOAuthError,
  isInsufficientScopeError,
  isAuthorizationRequiredError,
  type OAuthErrorData,
  type OAuthFailure,
  type InsufficientScopeErrorData,
  type InsufficientScopeReason,
  type AuthorizationRequiredErrorData,
  type AuthorizationRequiredReason,
} from './auth/errors.js';
