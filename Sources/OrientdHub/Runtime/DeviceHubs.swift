import OrientdProtocol

/// The hubs of one daemon, one per libiio context read: the first is the main one, whose display
/// accelerometer drives the screen and carries the rotation lock; the others serve clients that
/// name them (`device`: an accelerometer's id, or the context's URI).
public struct DeviceHubs: Sendable {
    public struct Entry: Sendable {
        public let uri: String
        public let hub: OrientationHub

        public init(uri: String, hub: OrientationHub) {
            self.uri = uri
            self.hub = hub
        }
    }

    public let entries: [Entry]
    public var main: OrientationHub { entries[0].hub }

    /// `entries` must not be empty; the first is the main hub.
    public init(_ entries: [Entry]) {
        precondition(!entries.isEmpty, "a daemon serves at least one hub")
        self.entries = entries
    }

    /// The hub serving `device` (a context's URI, or the id of the accelerometer whose
    /// orientation a hub holds), or nil if none; nil `device` means the main hub.
    public func hub(for device: String?) -> OrientationHub? {
        guard let device else { return main }
        return entries.first { $0.uri == device || $0.hub.sensorID == device }?.hub
    }

    /// Why `device` cannot be followed, for `unknown-device`: what it is, and what can be named.
    public func refusal(of device: String) -> String {
        let names = entries.flatMap { entry in [entry.uri] + (entry.hub.sensorID.map { [$0] } ?? []) }.joined(separator: ", ")
        if let entry = entries.first(where: { $0.hub.deviceIDs.contains(device) }) {
            return "'\(device)' has no orientation of its own (a base accelerometer only feeds the hinge angle); "
                + "its context's orientation is '\(entry.hub.sensorID ?? entry.uri)'; orientd follows: \(names)"
        }
        return "no accelerometer '\(device)'; orientd follows: \(names)"
    }

    /// The main hub's status, with every hub's accelerometers under `devices` and every hub's
    /// subscribers counted.
    public func status(clients: Int) -> StatusResult {
        var status = main.status(clients: clients)
        // A context never reached yet is named by its URI, the main one too.
        if status.sensor.uri.isEmpty { status.sensor.uri = entries[0].uri }
        if status.devices.isEmpty, entries.count > 1 { status.devices = [status.sensor] }
        for entry in entries.dropFirst() {
            let other = entry.hub.status(clients: clients)
            status.subscribers += other.subscribers
            var sensor = other.sensor
            if sensor.uri.isEmpty { sensor.uri = entry.uri }
            status.devices += other.devices.isEmpty ? [sensor] : other.devices
        }
        return status
    }
}
