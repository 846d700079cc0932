@testable import OrientationCore
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

    /// Entries beyond Int's range (1e19 and up) crashed the daemon when a matrix was printed.
    @Test("every finite entry formats, and reads back", arguments: [
        (1e19, "1e+19"), (1e308, "1e+308"), (-1e19, "-1e+19"), (0.5, "0.5"), (-0.0, "0"), (-1, "-1"),
        (1000, "1000"), (0.7071, "0.7071"), (0x1p53, "9007199254740992.0"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    ])
    func formatsEntries(value: Double, text: String) {
        #expect(formatDecimal(value) == text)
        #expect(parseDecimal(formatDecimal(value)) == value)
    }

    @Test func describesAMatrixAsItIsParsed() throws {
        let matrix = try MountMatrix(parsing: "1000, 0.5, -0; 0, -1, 0; 0, 0, -1000")
        #expect(matrix.description == "1000, 0.5, 0; 0, -1, 0; 0, 0, -1000")
        #expect(try MountMatrix(parsing: matrix.description) == matrix)
    }

    @Test("entries beyond ±1000 are refused", arguments: [
        ("1e19, 0, 0; 0, 1, 0; 0, 0, 1", "1e19"),
        ("1, 0, 0; 0, 1e308, 0; 0, 0, 1", "1e308"),
        ("1, 0, 0; 0, 1, 0; 0, 0, -1e19", "-1e19"),
        ("1, 0, 0; 0, 1, 0; 1000.001, 0, 1", "1000.001"),
    ])
    func refusesHugeEntries(text: String, cell: String) {
        #expect(throws: MountMatrixError.outOfRange(cell)) { try MountMatrix(parsing: text) }
    }

    @Test("entries that are not finite numbers are refused", arguments: ["nan", "inf", "-inf", "1e400", "infinity"])
    func refusesNonFiniteEntries(cell: String) {
        #expect(throws: MountMatrixError.notANumber(cell)) { try MountMatrix(parsing: "1, 0, 0; 0, \(cell), 0; 0, 0, 1") }
    }

    @Test func selectionSkipsHugeMatricesForTheNextSource() {
        let selection = MountMatrixSelection(choosingFrom: [
            MountMatrixCandidate(source: "udev", text: "1e19, 0, 0; 0, 1, 0; 0, 0, 1"),
            MountMatrixCandidate(source: "sysfs", text: "0, -1, 0; -1, 0, 0; 0, 0, 1"),
        ])
        #expect(selection.source == "sysfs")
        #expect(selection.rejected.map(\.error) == [.outOfRange("1e19")])
        #expect(selection.rejected.first?.error.description == "'1e19' is beyond ±1000, not the entry of a rotation")
    }

    @Test func aRejectedCellIsQuotedSafely() {
        let long = String(repeating: "9", count: 100)
        #expect(throws: MountMatrixError.outOfRange(String(repeating: "9", count: 40) + "... (100 characters)")) {
            try MountMatrix(parsing: "\(long), 0, 0; 0, 1, 0; 0, 0, 1")
        }
        #expect(throws: MountMatrixError.notANumber("1\\u{1B}[2J")) { try MountMatrix(parsing: "1\u{1B}[2J, 0, 0; 0, 1, 0; 0, 0, 1") }
    }
}
