import Foundation
import Testing

extension IntegrationTests {
    @Suite struct LockPermissionTests {
        /// Issue 13, D10: a member of the lock group with more than 256 supplementary groups was
        /// denied (the kernel refused to list so many into the room orientd gave it).
        @Test func aLockGroupMemberWithManyGroupsMayLock() throws {
            let daemon = try RotationLockTests.daemonOpenToOtherUsers(["--lock-group", "users"])
            let many = (20_000..<20_300).map(String.init) + ["users"]
            let member = try RotationLockTests.orientctlAsNobody(["lock", "--socket", daemon.socketPath], groups: many)
            #expect(member.status == 0, "refused: \(member.standardError)")
            let outsider = try RotationLockTests.orientctlAsNobody(["unlock", "--socket", daemon.socketPath],
                                                                  groups: (20_000..<20_300).map(String.init))
            #expect(outsider.status != 0, "300 groups without the lock group must not be enough")
        }
    }
}
