import OrientationCore
import Testing

@Suite struct MountMatrixTests {
    @Test("real-world spellings parse", arguments: [
        "0, -1, 0; -1, 0, 0; 0, 0, 1",
        "0,-1,0;-1,0,0;0,0,1",
        "-0, -1, 0; -1, 0, -0; 0, 0, 1  ",
        "0, -1, 0; -1, 0, 0; 0, 0, 1\n",
        " 0 ,-1 , 0 ;-1, 0,0 ;0,0,1.0",
    ])
    func parsesSpellings(text: String) throws {
        let matrix = try MountMatrix(parsing: text)
        #expect(matrix.apply(to: Vector3(1, 2, 3)) == Vector3(-2, -1, 3))
    }

    @Test func identityLeavesVectorsAlone() {
        #expect(MountMatrix.identity.apply(to: Vector3(0.5, -9.8, 1)) == Vector3(0.5, -9.8, 1))
    }

    @Test func appliesRowByRow() throws {
        // out.x = row1·v, out.y = row2·v, out.z = row3·v
        let matrix = try MountMatrix(parsing: "1, 2, 3; 4, 5, 6; 7, 8, 9")
        #expect(matrix.apply(to: Vector3(1, 0, -1)) == Vector3(-2, -2, -2))
    }

    @Test func rejectsAnAllZeroRow() {
        #expect(throws: MountMatrixError.zeroRow(2)) { try MountMatrix(parsing: "1, 0, 0; 0, -0, 0; 0, 0, 1") }
    }

    @Test("malformed matrices are rejected", arguments: [
        "1, 0, 0; 0, 1, 0",
        "1, 0, 0; 0, 1, 0; 0, 0, 1; 0, 0, 0",
        "1, 0; 0, 1, 0; 0, 0, 1",
        "1, 0, 0, 0; 0, 1, 0; 0, 0, 1",
        "1, 0, x; 0, 1, 0; 0, 0, 1",
        "1, 0, ; 0, 1, 0; 0, 0, 1",
        "nan, 0, 0; 0, 1, 0; 0, 0, 1",
        "",
    ])
    func rejectsMalformed(text: String) {
        #expect(throws: MountMatrixError.self) { try MountMatrix(parsing: text) }
    }

    @Test func selectionFollowsPrecedenceAndSkipsMalformedSources() {
        let selection = MountMatrixSelection(choosingFrom: [
            MountMatrixCandidate(source: "udev", text: "0, 0, 0; 0, 1, 0; 0, 0, 1"),
            MountMatrixCandidate(source: "sysfs mount_matrix", text: nil),
            MountMatrixCandidate(source: "sysfs in_accel_mount_matrix", text: "0, -1, 0; -1, 0, 0; 0, 0, 1\n"),
            MountMatrixCandidate(source: "sysfs in_mount_matrix", text: "1, 0, 0; 0, 1, 0; 0, 0, -1"),
        ])
        #expect(selection.source == "sysfs in_accel_mount_matrix")
        #expect(selection.matrix.apply(to: Vector3(1, 2, 3)) == Vector3(-2, -1, 3))
        #expect(selection.rejected.count == 1)
        #expect(selection.rejected.first?.source == "udev")
        #expect(selection.rejected.first?.error == .zeroRow(1))
    }

    @Test func selectionFallsBackToIdentity() {
        let selection = MountMatrixSelection(choosingFrom: [
            MountMatrixCandidate(source: "udev", text: "garbage"),
            MountMatrixCandidate(source: "sysfs", text: "  \n"),
        ])
        #expect(selection.matrix == .identity)
        #expect(selection.source.hasPrefix("identity"))
        #expect(selection.rejected.map(\.source) == ["udev"])
    }
}
