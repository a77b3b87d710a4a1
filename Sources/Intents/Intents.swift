import Foundation
import UserNotificationsModel

// The part of Apple's Intents framework that communication notifications use: a service
// extension builds an `INSendMessageIntent` with the sender as an `INPerson`, donates an
// `INInteraction`, and calls `content.updating(from: intent)`. UNTerm shows the sender's name
// and avatar initials in the header. Nothing is donated anywhere: Siri has no place here.

/// The kind of value a person handle holds.
public enum INPersonHandleType: Int, Sendable {
  case unknown = 0
  case emailAddress = 1
  case phoneNumber = 2
}

/// How to reach a person: an address of some kind.
open class INPersonHandle: NSObject, @unchecked Sendable {
  open private(set) var value: String?
  open private(set) var type: INPersonHandleType
  open private(set) var label: String?

  public init(value: String?, type: INPersonHandleType) {
    self.value = value
    self.type = type
    super.init()
  }

  public convenience init(value: String?, type: INPersonHandleType, label: String?) {
    self.init(value: value, type: type)
    self.label = label
  }
}

/// An image for a person or a parameter: data, a file, or a named image.
open class INImage: NSObject, @unchecked Sendable {
  /// The image's data, when it was given as data.
  package private(set) var imageData: Data?
  /// The image's file, when it was given as a URL.
  package private(set) var imageURL: URL?
  /// The name of an image in the app's bundle.
  package private(set) var imageName: String?

  private override init() { super.init() }

  public convenience init(imageData: Data) {
    self.init()
    self.imageData = imageData
  }

  public convenience init(named name: String) {
    self.init()
    imageName = name
  }

  public convenience init?(url URL: URL) {
    self.init()
    imageURL = URL
  }

  public convenience init?(url URL: URL, width: Double, height: Double) {
    self.init(url: URL)
  }
}

/// A person: a handle, a name, an image.
open class INPerson: NSObject, @unchecked Sendable {
  open private(set) var personHandle: INPersonHandle?
  open private(set) var nameComponents: PersonNameComponents?
  /// The name to show: the one given, else one made from the name components, else the
  /// handle's value.
  open private(set) var displayName: String
  open private(set) var image: INImage?
  open private(set) var contactIdentifier: String?
  open private(set) var customIdentifier: String?
  /// Whether this person is the device's owner.
  open private(set) var isMe: Bool

  public init(
    personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
    contactIdentifier: String?, customIdentifier: String?
  ) {
    self.personHandle = personHandle
    self.nameComponents = nameComponents
    let fromComponents = nameComponents.map {
      [$0.givenName, $0.familyName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }
    self.displayName = displayName ?? fromComponents.flatMap { $0.isEmpty ? nil : $0 } ?? personHandle.value ?? ""
    self.image = image
    self.contactIdentifier = contactIdentifier
    self.customIdentifier = customIdentifier
    isMe = false
    super.init()
  }

  public convenience init(
    personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
    contactIdentifier: String?, customIdentifier: String?, isMe: Bool
  ) {
    self.init(
      personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
      contactIdentifier: contactIdentifier, customIdentifier: customIdentifier)
    self.isMe = isMe
  }

  public convenience init(
    personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
    contactIdentifier: String?, customIdentifier: String?, isMe: Bool, suggestionType: INPersonSuggestionType
  ) {
    self.init(
      personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
      contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: isMe)
  }
}

/// What Siri may suggest a person as.
public enum INPersonSuggestionType: Int, Sendable {
  case none = 0
  case socialProfile = 1
  case instantMessageAddress = 2
}

/// A phrase with how to say it: a group conversation's name, for one.
open class INSpeakableString: NSObject, @unchecked Sendable {
  open private(set) var spokenPhrase: String
  open private(set) var vocabularyIdentifier: String?
  open private(set) var pronunciationHint: String?

  public init(spokenPhrase: String) {
    self.spokenPhrase = spokenPhrase
    super.init()
  }

  public convenience init(vocabularyIdentifier: String, spokenPhrase: String, pronunciationHint: String?) {
    self.init(spokenPhrase: spokenPhrase)
    self.vocabularyIdentifier = vocabularyIdentifier
    self.pronunciationHint = pronunciationHint
  }
}

/// A file an intent carries.
open class INFile: NSObject, @unchecked Sendable {
  open private(set) var data: Data?
  open private(set) var fileURL: URL?
  open var filename: String
  open private(set) var typeIdentifier: String?

  public init(data: Data, filename: String, typeIdentifier: String?) {
    self.data = data
    self.filename = filename
    self.typeIdentifier = typeIdentifier
    super.init()
  }

  public init(fileURL: URL, filename: String?, typeIdentifier: String?) {
    self.fileURL = fileURL
    self.filename = filename ?? fileURL.lastPathComponent
    self.typeIdentifier = typeIdentifier
    super.init()
  }
}

/// Something attached to a message.
open class INSendMessageAttachment: NSObject, @unchecked Sendable {
  open private(set) var audioMessageFile: INFile?

  public required override init() { super.init() }

  open class func attachment(withAudioMessageFile audioMessageFile: INFile) -> Self {
    let attachment = self.init()
    attachment.audioMessageFile = audioMessageFile
    return attachment
  }
}

/// The kind of message sent.
public enum INOutgoingMessageType: Int, Sendable {
  case unknown = 0
  case outgoingMessageText = 1
  case outgoingMessageAudio = 2
}

/// A request from the user, the base of every intent.
open class INIntent: NSObject, @unchecked Sendable {
  /// A unique identifier.
  open private(set) var identifier: String? = UUID().uuidString
  /// A description for Siri.
  open var suggestedInvocationPhrase: String?
  fileprivate var images: [AnyKeyPath: INImage] = [:]

  public override init() { super.init() }
}

/// How Swift spells `setImage(_:forParameterNamed:)` with a key path of the intent's own type,
/// as Apple's overlay does.
public protocol _INIntentSetImageKeyPath {}

extension INIntent: _INIntentSetImageKeyPath {}

extension _INIntentSetImageKeyPath where Self: INIntent {
  /// Sets the image shown for a parameter (`\.sender`: the sender's avatar).
  public func setImage<Value>(_ image: INImage?, forParameterNamed parameterName: KeyPath<Self, Value>) {
    images[parameterName] = image
  }

  /// The image set for a parameter.
  public func image<Value>(forParameterNamed parameterName: KeyPath<Self, Value>) -> INImage? {
    images[parameterName]
  }
}

/// The app's answer to an intent, the base of every response.
open class INIntentResponse: NSObject, @unchecked Sendable {
  public override init() { super.init() }
}

/// A message someone sent (for a communication notification: an incoming one).
open class INSendMessageIntent: INIntent, UNNotificationContentProviding, @unchecked Sendable {
  open private(set) var recipients: [INPerson]?
  open private(set) var outgoingMessageType: INOutgoingMessageType
  open private(set) var content: String?
  open private(set) var speakableGroupName: INSpeakableString?
  open private(set) var conversationIdentifier: String?
  open private(set) var serviceName: String?
  open private(set) var sender: INPerson?
  open private(set) var attachments: [INSendMessageAttachment]?

  public init(
    recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?,
    speakableGroupName: INSpeakableString?, conversationIdentifier: String?, serviceName: String?, sender: INPerson?,
    attachments: [INSendMessageAttachment]?
  ) {
    self.recipients = recipients
    self.outgoingMessageType = outgoingMessageType
    self.content = content
    self.speakableGroupName = speakableGroupName
    self.conversationIdentifier = conversationIdentifier
    self.serviceName = serviceName
    self.sender = sender
    self.attachments = attachments
    super.init()
  }

  public convenience init(
    recipients: [INPerson]?, content: String?, speakableGroupName: INSpeakableString?,
    conversationIdentifier: String?, serviceName: String?, sender: INPerson?
  ) {
    self.init(
      recipients: recipients, outgoingMessageType: .outgoingMessageText, content: content,
      speakableGroupName: speakableGroupName, conversationIdentifier: conversationIdentifier,
      serviceName: serviceName, sender: sender, attachments: nil)
  }
}

extension INSendMessageIntent: UNCommunicationProviding {
  package var communicationSender: UNCommunicationSender? {
    guard let sender, !sender.displayName.isEmpty else { return nil }
    let avatar = sender.image ?? images[\INSendMessageIntent.sender]
    return UNCommunicationSender(
      displayName: sender.displayName, groupName: speakableGroupName?.spokenPhrase, hasImage: avatar != nil)
  }
}

/// Which way an interaction went.
public enum INInteractionDirection: Int, Sendable {
  case unspecified = 0
  case outgoing = 1
  case incoming = 2
}

/// An intent and its response, as donated to the system.
open class INInteraction: NSObject, @unchecked Sendable {
  open private(set) var intent: INIntent
  open private(set) var intentResponse: INIntentResponse?
  open var direction: INInteractionDirection = .unspecified
  open var identifier: String = UUID().uuidString
  open var groupIdentifier: String?
  open var dateInterval: DateInterval?

  public init(intent: INIntent, response: INIntentResponse?) {
    self.intent = intent
    intentResponse = response
    super.init()
  }

  /// Donates the interaction; UNTerm keeps no donations, and reports success.
  open func donate(completion: (((any Error)?) -> Void)? = nil) {
    completion?(nil)
  }

  /// Donates the interaction; UNTerm keeps no donations.
  open func donate() async throws {}
}
