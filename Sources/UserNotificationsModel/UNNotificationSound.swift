import Foundation

/// The name of a sound file in the app's bundle or its `Library/Sounds` folder.
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// A sound played when a notification is delivered.
open class UNNotificationSound: NSObject, NSCopying, @unchecked Sendable {
  /// The sound file, or `nil` for the system's default sound.
  package let name: UNNotificationSoundName?
  /// Whether the sound is a critical alert, which plays through the mute switch.
  package let isCritical: Bool
  /// The critical alert's volume, 0 to 1, when one was given.
  package let volume: Float?

  package init(name: UNNotificationSoundName?, isCritical: Bool, volume: Float?) {
    self.name = name
    self.isCritical = isCritical
    self.volume = volume
    super.init()
  }

  /// Creates a sound from a file in the app's bundle.
  public convenience init(named name: UNNotificationSoundName) {
    self.init(name: name, isCritical: false, volume: nil)
  }

  /// The system's default notification sound.
  public class var `default`: UNNotificationSound {
    UNNotificationSound(name: nil, isCritical: false, volume: nil)
  }

  /// The system's default ringtone.
  public class var defaultRingtone: UNNotificationSound {
    UNNotificationSound(name: UNNotificationSoundName("ringtone"), isCritical: false, volume: nil)
  }

  /// The system's default critical-alert sound.
  public class var defaultCritical: UNNotificationSound {
    UNNotificationSound(name: nil, isCritical: true, volume: nil)
  }

  /// The default critical-alert sound at a volume from 0 to 1.
  public class func defaultCriticalSound(withAudioVolume volume: Float) -> UNNotificationSound {
    UNNotificationSound(name: nil, isCritical: true, volume: volume)
  }

  /// A critical-alert sound from a file in the app's bundle.
  public class func criticalSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
    UNNotificationSound(name: name, isCritical: true, volume: nil)
  }

  /// A critical-alert sound from a file, at a volume from 0 to 1.
  public class func criticalSoundNamed(
    _ name: UNNotificationSoundName, withAudioVolume volume: Float
  ) -> UNNotificationSound {
    UNNotificationSound(name: name, isCritical: true, volume: volume)
  }

  /// A short label for the sound: `default`, a file name, with `critical` when it is one.
  package var label: String {
    let base = name?.rawValue ?? "default"
    return isCritical ? "critical \(base)" : base
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationSound else { return false }
    return other.name == name && other.isCritical == isCritical && other.volume == volume
  }

  open override var hash: Int { label.hashValue }
}
