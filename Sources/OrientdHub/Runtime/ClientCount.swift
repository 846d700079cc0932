import Synchronization

/// Counts connected clients against a maximum, in all and per user, so that no number of
/// connections can use up the daemon's file descriptors (which the sensor needs too), and no one
/// user can take every place. Root is held only to the overall maximum.
final class ClientCount: Sendable {
    let maximum: Int
    let maximumPerUser: Int
    private struct Counts {
        var total = 0
        var byUser: [UInt32: Int] = [:]
    }
    private let counts = Mutex(Counts())

    init(maximum: Int, maximumPerUser: Int) {
        self.maximum = maximum
        self.maximumPerUser = maximumPerUser
    }

    enum Refusal { case full, userFull }

    /// Takes a place for a new client of `user` (nil: unknown); the refusal when none is free.
    func admit(user: UInt32?) -> Refusal? {
        counts.withLock { counts in
            guard counts.total < maximum else { return .full }
            if let user, user != 0, counts.byUser[user, default: 0] >= maximumPerUser { return .userFull }
            counts.total += 1
            if let user { counts.byUser[user, default: 0] += 1 }
            return nil
        }
    }

    func release(user: UInt32?) {
        counts.withLock { counts in
            counts.total -= 1
            if let user {
                counts.byUser[user, default: 1] -= 1
                if counts.byUser[user] == 0 { counts.byUser[user] = nil }
            }
        }
    }

    var connected: Int { counts.withLock { $0.total } }
}
