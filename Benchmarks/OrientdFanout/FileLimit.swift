import Foundation

/// Every subscriber holds a file descriptor in this process (and one in orientd's): raises the
/// soft open-file limit to the hard one and checks that the connections of a run fit.
enum FileLimit {
    /// Descriptors this process needs besides the connections: standard streams, the event
    /// loops' epoll and eventfd, the daemon's pipes, the sensor's files.
    static let reserve = 64

    /// Raises the soft limit to the hard one; returns the soft limit in effect.
    @discardableResult
    static func raise() throws -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            throw FanoutFailure("cannot read the open-file limit: \(String(cString: strerror(errno)))")
        }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 else {
                throw FanoutFailure("cannot raise the open-file limit from \(limit.rlim_cur) to \(limit.rlim_max): \(String(cString: strerror(errno)))")
            }
            limit = raised
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Fails unless `connections` open sockets fit under the limit, with what to do about it.
    static func check(connections: Int) throws {
        let limit = try raise()
        guard connections + reserve <= limit else {
            throw FanoutFailure("""
                \(connections) connections need about \(connections + reserve) open files, but this process may \
                open only \(limit) (the hard limit, ulimit -Hn); raise it (e.g. ulimit -Hn \(connections + reserve) \
                as root, or LimitNOFILE= in a unit) or ask for fewer --subscribers
                """)
        }
    }
}

/// A reason the benchmark cannot go on, in words a person can act on.
struct FanoutFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
