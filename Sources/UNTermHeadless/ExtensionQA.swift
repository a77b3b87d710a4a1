import Foundation
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

/// The QA report on content-extension designs: per device, the initial and preferred heights,
/// the budget, the overflow and what is cut — as lint diagnostics.
package enum ExtensionQA {
  /// Checks descriptors against the budgets, using the first payload of each served category
  /// (or an empty notification) to fill templates.
  ///
  /// Each design is measured at the default text size, at the largest accessibility size and
  /// at the sizes held. An overflow at a held size (`heldSizes`, `--text-sizes`; else the
  /// session's `textSize`) is a finding; at the other sizes the size note says it.
  ///
  /// With `strict`, an overflow on one of `devices` (both when nil: `--device` not given) at a
  /// held size is an error, and so is a design measured without a payload of its category: its
  /// templates would be empty, so its height would prove nothing.
  package static func report(
    extensionFiles: [String], payloads: [Payload], categories: [String: UNNotificationCategory]?,
    strict: Bool, devices: Set<DeviceProfile.Kind>? = nil, textSize: DynamicTypeSize = .default,
    heldSizes: [DynamicTypeSize]? = nil, images: (any ImageProvider)? = nil
  ) -> (diagnostics: [Diagnostic], missingFile: Bool) {
    let held = Set(heldSizes ?? [textSize])
    let measured = Set([.default, .largest]).union(held).sorted()
    var diagnostics: [Diagnostic] = []
    var missing = false
    var claimed: [String: String] = [:]
    for file in extensionFiles {
      let bytes: [UInt8]
      do {
        bytes = try InputFile.read(file)
      } catch {
        if error.exitCode == .noInput { missing = true }
        diagnostics.append(
          Diagnostic(file: file, location: .file, code: .unreadableFile, message: error.message))
        continue
      }
      let analyzed = ContentExtensionDescriptor.analyze(bytes, file: file)
      diagnostics += analyzed.diagnostics
      guard let descriptor = analyzed.descriptor else { continue }
      let source = descriptor.categorySource
      for category in descriptor.attributes.categories {
        if let other = claimed[category] {
          diagnostics.append(
            source.diagnostic(
              .duplicateExtensionCategory,
              "category \"\(category)\" is also claimed by \(other); on iOS extensions must not share a category"))
        } else {
          claimed[category] = file
        }
        if let categories, categories[category] == nil {
          let hint = Suggestion.closest(to: category, in: categories.keys).map { " Did you mean \"\($0)\"?" } ?? ""
          diagnostics.append(
            source.diagnostic(
              .extensionCategoryUnregistered,
              "category \"\(category)\" is not registered, so no notification reaches this extension (matching is case-sensitive).\(hint)"
            ))
        }
      }
      let served = payloads.filter { descriptor.attributes.categories.contains($0.content?.categoryIdentifier ?? "") }
      diagnostics += templatePaths(of: descriptor, against: served)
      let sample = served.first
      if sample == nil {
        let served = descriptor.attributes.categories.map { "\"\($0)\"" }.joined(separator: ", ")
        diagnostics.append(
          source.diagnostic(
            .extensionWithoutPayload, severity: strict ? .error : nil,
            "no payload of category \(served.isEmpty ? "(none)" : served) was given to size the view against; its templates are empty, so the measured height proves nothing. Give a payload of the category too"
          ))
      }
      let strictOn = strict ? (devices ?? Set(DeviceProfile.Kind.allCases)) : []
      diagnostics += measure(
        descriptor, sample: sample, strictOn: strictOn, sizes: measured, held: held, images: images)
    }
    return (diagnostics, missing)
  }

  /// A `{{userInfo.PATH}}` that no payload of the extension's categories has is a warning, with
  /// the closest path they do hold; one that only some lack is a note naming them (an optional
  /// key, or a payload that forgot it) (issue 25.8).
  static func templatePaths(of descriptor: ContentExtensionDescriptor, against payloads: [Payload]) -> [Diagnostic] {
    let contents = payloads.compactMap { payload in payload.content.map { (payload.file, $0.userInfo) } }
    guard !contents.isEmpty else { return [] }
    func name(_ file: String) -> String { (file as NSString).lastPathComponent }
    var out: [Diagnostic] = []
    var reported = Set<String>()
    for use in descriptor.templates {
      for path in Template.userInfoPaths(use.text)
      where reported.insert(path + "\u{0}" + use.source.path.description).inserted {
        let lacking = contents.filter { !Template.has(path, in: $0.1) }
        guard !lacking.isEmpty else { continue }
        let template: SafeText = "{{userInfo.\(path)}}"
        if lacking.count == contents.count {
          let known = Set(contents.flatMap { Template.paths(in: $0.1) })
          let hint = Suggestion.closest(to: path, in: known.sorted()).map { " Did you mean {{userInfo.\($0)}}?" } ?? ""
          let measured = contents.map { name($0.0) }.joined(separator: ", ")
          out.append(
            use.source.diagnostic(
              .templateMissingKey,
              "\(template) is in none of the payloads measured (\(measured)), so the view shows it empty.\(hint)"))
        } else {
          let without = lacking.map { name($0.0) }.joined(separator: ", ")
          out.append(
            use.source.diagnostic(
              .templateMissingKey, severity: .note,
              "\(template) is missing in \(without) (\(lacking.count) of the \(contents.count) payloads measured), so the view shows it empty there"
            ))
        }
      }
    }
    return out
  }

  /// Measures a loaded view on a device's card at its full width: the numbers the QA report,
  /// the activity pane and the design sheet give.
  ///
  /// `text` is the default content as the screen shows it (the session's language); nil takes
  /// the notification's own.
  package static func measure(
    _ view: ExtensionView, for notification: UNNotification, device: DeviceProfile, textSize: DynamicTypeSize,
    images: (any ImageProvider)?, text: (title: String, subtitle: String, body: String)? = nil
  ) -> ExtensionMeasurement {
    let columns = Projection.cardColumns(device, screenWidth: 1000) - 4
    let defaults = text.map {
      ExtensionLayout.defaultContent(
        title: $0.title, subtitle: $0.subtitle, body: $0.body, textSize: textSize, columns: columns)
    }
    return ExtensionLayout.measure(
      view, for: notification, device: device, textSize: textSize, columns: columns, images: images,
      defaultContent: defaults)
  }

  private static func notification(for descriptor: ContentExtensionDescriptor, sample: Payload?) -> UNNotification {
    let content: UNNotificationContent
    if let sampleContent = sample?.content {
      content = sampleContent
    } else {
      let empty = UNMutableNotificationContent()
      empty.categoryIdentifier = descriptor.attributes.categories.first ?? ""
      content = empty
    }
    let request = UNNotificationRequest(identifier: "qa", content: content, trigger: nil, remote: sample?.info)
    return UNNotification(request: request, date: Date(timeIntervalSince1970: 0))
  }

  /// The notification and the extension's view as a session shows them: a session from the
  /// factory every shell uses, the sample delivered and long-pressed. A sample the session would
  /// not show (no alert text) fills the templates directly.
  private static func shown(_ descriptor: ContentExtensionDescriptor, sample: Payload?) -> (
    UNNotification, ExtensionView
  ) {
    let direct = notification(for: descriptor, sample: sample)
    guard
      let session = try? SessionFactory.make(
        SessionConfiguration(), now: direct.date, extensions: [.descriptor(descriptor)])
    else { return (direct, descriptor.view(for: direct)) }
    defer { session.detach() }
    session.present(direct.request)
    session.send(.command(.longPress))
    guard let expanded = session.state.expanded, let view = expanded.extensionView else {
      return (direct, descriptor.view(for: direct))
    }
    return (expanded.notification, view)
  }

  /// One `extension-size` note per device and text size, and an overflow finding where the view
  /// is too tall at a `held` size: an error on the devices in `strictOn`.
  package static func measure(
    _ descriptor: ContentExtensionDescriptor, sample: Payload?, strictOn: Set<DeviceProfile.Kind>,
    sizes: [DynamicTypeSize] = [.default], held: Set<DynamicTypeSize> = [.default], images: (any ImageProvider)?
  ) -> [Diagnostic] {
    var out: [Diagnostic] = []
    let (notification, view) = shown(descriptor, sample: sample)
    let using: SafeText =
      sample.map { " with \(($0.file as NSString).lastPathComponent)" }
      ?? " (no payload of its category given; templates are empty)"
    for device in [DeviceProfile.iphone, .ipad] {
      for size in sizes {
        out += measure(
          descriptor, view: view, notification: notification, device: device, size: size, isHeld: held.contains(size),
          strict: strictOn.contains(device.kind), using: using, images: images)
      }
    }
    return out
  }

  /// The note (and any overflow findings) for one device at one text size.
  private static func measure(
    _ descriptor: ContentExtensionDescriptor, view: ExtensionView, notification: UNNotification, device: DeviceProfile,
    size: DynamicTypeSize, isHeld: Bool, strict: Bool, using: SafeText, images: (any ImageProvider)?
  ) -> [Diagnostic] {
    var out: [Diagnostic] = []
    let m = measure(view, for: notification, device: device, textSize: size, images: images)
    func pt(_ value: Double) -> String { Projection.describe(points: value) }
    // The default size goes unnamed; any other is said with the device.
    let at = size == .default ? "" : " at text size \(size.displayName)"
    let onDevice = "on \(device.displayName)\(at)"
    var message: SafeText =
      "\(device.kind.rawValue)\(at): initial \(pt(m.initialHeight)) pt (\(pt(device.notificationWidth)) × \(descriptor.attributes.initialContentSizeRatio)), preferred \(pt(m.preferredHeight)) pt"
    // The system's title and body under the view count against the budget too.
    if m.defaultHeight > 0 { message += " + \(pt(m.defaultHeight)) pt of default content below it" }
    message += ", budget \(pt(m.budget)) pt"
    message += m.overflow > 0 ? ", \(pt(m.overflow)) pt over" : ", fits (\(pt(m.budget - m.totalHeight)) pt to spare)"
    if !m.cut.isEmpty { message += "; cut: \(m.cut.joined(separator: ", "))" }
    message += using
    var note = descriptor.viewSource.diagnostic(.extensionSize, message)
    note.details = [
      "device": device.kind.rawValue, "textSize": size.rawValue, "initialHeight": pt(m.initialHeight),
      "preferredHeight": pt(m.preferredHeight), "defaultContentHeight": pt(m.defaultHeight), "budget": pt(m.budget),
      "overflow": pt(m.overflow), "cut": m.cut.joined(separator: "; "),
    ]
    out.append(note)
    // An overflow at a size nobody holds the design to is in the note alone.
    if m.overflow > 0 && isHeld {
      var finding = descriptor.viewSource.diagnostic(
        .extensionOverflow, severity: strict ? .error : nil,
        "\(onDevice) \(m.defaultHeight > 0 ? "the view and the default content below it are \(pt(m.totalHeight)) pt tall" : "the view is \(pt(m.preferredHeight)) pt tall"), \(pt(m.overflow)) pt over the \(pt(m.budget)) pt budget; iOS would clip \(m.cut.joined(separator: ", "))"
      )
      finding.details = note.details
      out.append(finding)
    }
    // The loading height does not depend on the text size.
    if m.initialOverflow > 0 && size == .default {
      out.append(
        descriptor.viewSource.diagnostic(
          .extensionInitialOverflow,
          "on \(device.displayName) the loading view (\(pt(m.initialHeight)) pt) is taller than the \(pt(m.budget)) pt budget"
        ))
    }
    return out
  }
}
