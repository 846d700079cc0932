import Glibc
import Logging

/// Who may change the rotation lock: root, and members of one configured group.
public struct LockPolicy: Sendable {
    public let groupName: String?
    private let groupID: gid_t?

    /// Resolves `groupName` (nil or empty: root only); an unknown group is logged and grants nothing.
    public init(groupName: String?, logger: Logger) {
        let name = groupName.flatMap { $0.isEmpty ? nil : $0 }
        self.groupName = name
        guard let name else {
            groupID = nil
            return
        }
        if let group = getgrnam(name) {
            groupID = group.pointee.gr_gid
        } else {
            groupID = nil
            logger.warning("lock-group '\(name)' does not exist; only root may change the rotation lock (create the group or fix lock-group)")
        }
    }

    func allows(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        if peer.uid == 0 { return true }
        guard let groupID else { return false }
        return peer.gid == groupID || peer.supplementaryGroups.contains(groupID)
    }

    /// Why `peer` may not, in words that say what to do.
    func refusal(for peer: PeerCredentials?) -> String {
        let who = peer.map { "uid \($0.uid)" } ?? "a client whose credentials could not be read"
        if let groupName {
            return "only root and members of group '\(groupName)' may change the rotation lock; \(who) is neither"
        }
        return "only root may change the rotation lock (\(who) asked); set lock-group in orientd's configuration to let a group change it"
    }
}
