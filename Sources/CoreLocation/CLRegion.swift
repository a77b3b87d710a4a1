import Foundation

// The part of Apple's CoreLocation that notification code needs: the region a
// `UNLocationNotificationTrigger` watches. UNTerm has no location, so nothing here reports one:
// these are the types, so an app's code that builds a location trigger compiles and runs.

/// A latitude or longitude in degrees.
public typealias CLLocationDegrees = Double
/// A distance in metres.
public typealias CLLocationDistance = Double

/// A latitude and longitude on the WGS 84 reference frame.
public struct CLLocationCoordinate2D: Hashable, Sendable {
  public var latitude: CLLocationDegrees
  public var longitude: CLLocationDegrees

  public init() {
    latitude = 0
    longitude = 0
  }

  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// Whether a coordinate is a valid latitude and longitude.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func CLLocationCoordinate2DIsValid(_ coord: CLLocationCoordinate2D) -> Bool {
  (-90...90).contains(coord.latitude) && (-180...180).contains(coord.longitude)
}

/// Makes a coordinate.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func CLLocationCoordinate2DMake(
  _ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
  CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// An area a location trigger watches.
open class CLRegion: NSObject, NSCopying, @unchecked Sendable {
  /// The identifier the app gave the region.
  open private(set) var identifier: String
  /// Whether entering the region fires a trigger (the default).
  open var notifyOnEntry = true
  /// Whether leaving the region fires a trigger (the default).
  open var notifyOnExit = true

  init(identifier: String) {
    self.identifier = identifier
    super.init()
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  open override var description: String { "\(type(of: self)) \"\(identifier)\"" }
}

/// A circle on the Earth's surface: a centre and a radius.
open class CLCircularRegion: CLRegion, @unchecked Sendable {
  /// The centre.
  open private(set) var center: CLLocationCoordinate2D
  /// The radius in metres.
  open private(set) var radius: CLLocationDistance

  public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
    self.center = center
    self.radius = radius
    super.init(identifier: identifier)
  }

  /// Whether a coordinate lies in the circle (great-circle distance on a sphere).
  open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
    let earthRadius = 6_371_000.0
    func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    let dLat = radians(coordinate.latitude - center.latitude)
    let dLon = radians(coordinate.longitude - center.longitude)
    let a =
      sin(dLat / 2) * sin(dLat / 2)
      + cos(radians(center.latitude)) * cos(radians(coordinate.latitude)) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * earthRadius * asin(min(1, sqrt(a))) <= radius
  }

  open override var description: String {
    "CLCircularRegion \"\(identifier)\" (\(center.latitude), \(center.longitude)) radius \(radius) m"
  }
}
