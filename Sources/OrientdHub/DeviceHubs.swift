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

    /// The hub serving `device` (an id from `status`, or a URI), or nil if no hub has it; nil
    /// `device` means the main hub.
    public func hub(for device: String?) -> OrientationHub? {
        guard let device else { return main }
        return entries.first { $0.uri == device || $0.hub.deviceIDs.contains(device) }?.hub
    }

    /// What `unknown-device` says a client may name instead.
    public var knownDevices: [String] {
        entries.flatMap { entry in [entry.uri] + entry.hub.deviceIDs.filter { $0 != entry.uri } }
    }

    /// The main hub's status, with every hub's accelerometers under `devices` and every hub's
    /// subscribers counted.
    public func status(clients: Int) -> StatusResult {
        var status = main.status(clients: clients)
        for entry in entries.dropFirst() {
            let other = entry.hub.status(clients: clients)
            status.subscribers += other.subscribers
            status.devices += other.devices.isEmpty ? [other.sensor] : other.devices
        }
        return status
    }
}
