import Glibc
import Logging

/// Every client holds a file descriptor, and so does every sensor read: clients must never be able
/// to use them all. Raises the soft limit to the hard one, and keeps a reserve out of the clients' reach.
enum FileDescriptorBudget {
    static let reserve = 64

    static func clients(wanted: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let available = Int(clamping: limit.rlim_cur) - reserve
        guard wanted > available else { return wanted }
        let allowed = max(1, available)
        logger.warning("serving at most \(allowed) clients, not \(wanted): the open-file limit is \(limit.rlim_cur) (raise LimitNOFILE= or ulimit -n)")
        return allowed
    }
}
