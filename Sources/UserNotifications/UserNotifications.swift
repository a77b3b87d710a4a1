// What an app imports: Apple's model (UserNotificationsModel) and, as on iOS, URLSession.
//
// iOS code downloads attachments with URLSession after `import UserNotifications` (which brings
// Foundation); on Linux URLSession lives in FoundationNetworking, so this module re-exports it.
// UNTerm's own modules import UserNotificationsModel instead: FoundationNetworking links libcurl
// and some thirty libraries that every start of `unterm` would otherwise load.
@_exported import UserNotificationsModel

#if canImport(FoundationNetworking)
  @_exported import FoundationNetworking
#endif
